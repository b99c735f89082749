#include "server/play/local_directory.hpp"

namespace tilerace::server {

namespace asio = boost::asio;

asio::awaitable<std::string> LocalDirectory::claim_code() { co_return std::string(); }

asio::awaitable<std::optional<std::string>> LocalDirectory::locate(std::string) {
  co_return std::nullopt;  // every room of this world is here
}

namespace {

QuickMatchResult::Outcome outcome_of(Matchmaker::Outcome outcome) {
  switch (outcome) {
    case Matchmaker::Outcome::queued: break;
    case Matchmaker::Outcome::refused: return QuickMatchResult::Outcome::refused;
    case Matchmaker::Outcome::paired: return QuickMatchResult::Outcome::paired;
    case Matchmaker::Outcome::gone: return QuickMatchResult::Outcome::gone;
  }
  return QuickMatchResult::Outcome::queued;
}

}  // namespace

asio::awaitable<QuickMatchResult> LocalDirectory::quick_match(std::shared_ptr<Player> player,
                                                              protocol::RoomOptions options,
                                                              Seeking seeking) {
  QuickMatchResult result;
  const auto outcome =
      matchmaker_.match(Matchmaker::key_of(options), player, seeking, Matchmaker::Clock::now(),
                        [&](const std::shared_ptr<Player>& waiting) {
                          return rooms_.create_matched(options, waiting, player, result.room);
                        });
  result.outcome = outcome_of(outcome);
  co_return result;
}

asio::awaitable<QuickMatchResult> LocalDirectory::rematch(std::shared_ptr<Player> player,
                                                          protocol::RoomOptions options) {
  QuickMatchResult result;
  const auto outcome =
      matchmaker_.rematch(Matchmaker::key_of(options), player, Matchmaker::Clock::now(),
                          [&](const std::shared_ptr<Player>& waiting) {
                            return rooms_.create_matched(options, waiting, player, result.room);
                          });
  result.outcome = outcome_of(outcome);
  co_return result;
}

asio::awaitable<bool> LocalDirectory::unqueue(std::shared_ptr<Player> player) {
  co_return matchmaker_.cancel(*player);
}

}  // namespace tilerace::server
