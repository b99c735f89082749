#include "server/play/local_directory.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

asio::awaitable<std::string> LocalDirectory::claim_code() { co_return std::string(); }

asio::awaitable<std::optional<std::string>> LocalDirectory::locate(std::string) {
  co_return std::nullopt;  // every room of this world is here
}

asio::awaitable<QuickMatchResult> LocalDirectory::quick_match(std::shared_ptr<Player> player,
                                                              protocol::RoomOptions options) {
  QuickMatchResult result;
  const auto outcome = matchmaker_.match(
      {options.mode, options.size}, player, [&](const std::shared_ptr<Player>& waiting) {
        return rooms_.create_matched(options, waiting, player, result.room);
      });
  switch (outcome) {
    case Matchmaker::Outcome::queued: result.outcome = QuickMatchResult::Outcome::queued; break;
    case Matchmaker::Outcome::refused: result.outcome = QuickMatchResult::Outcome::refused; break;
    case Matchmaker::Outcome::paired: result.outcome = QuickMatchResult::Outcome::paired; break;
  }
  co_return result;
}

asio::awaitable<bool> LocalDirectory::unqueue(std::shared_ptr<Player> player) {
  co_return matchmaker_.cancel(*player);
}

}  // namespace tilerace::server
