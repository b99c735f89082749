// Asio and Beast compiled once for the whole program (BOOST_ASIO_SEPARATE_COMPILATION,
// BOOST_BEAST_SEPARATE_COMPILATION), so other files include only declarations.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
