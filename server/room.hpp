#pragma once
// A room: racers who join by code, ready up, race with identical seeds, and the spectators
// who watch them. Thread-safe: every public function takes the room's mutex; timers run on
// the room's executor and take it too. Lock order: room, then player. Rooms see participants,
// never sockets; a broadcast is encoded once and shared.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "protocol/encode.hpp"
#include "protocol/messages.hpp"
#include "server/metrics.hpp"
#include "server/options.hpp"
#include "server/player.hpp"
#include "server/store.hpp"
#include "server/store_worker.hpp"

namespace tilerace::server {

struct RoomServices {
  boost::asio::any_io_executor executor;  // timers and the end-of-race coroutine
  StoreWorker& store;
  Metrics& metrics;
  const Options& options;
  std::function<void(const std::string& code)> on_empty;  // the room has no racers left
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  static constexpr int kMaxSpectators = 100;

  Room(std::string code, protocol::RoomOptions options, RoomServices& services);

  const std::string& code() const noexcept { return code_; }
  bool is_public() const noexcept { return options_.is_public; }

  // Each answers `to` (the asking connection) directly, errors included.
  void join(const std::shared_ptr<Player>& player, Participant& to, const protocol::Rid& rid);
  void leave(Player& player, Participant& to, const protocol::Rid& rid);
  void set_ready(Player& player, bool ready, Participant& to, const protocol::Rid& rid);
  // move, slide, undo or resign from a racer.
  void play(Player& player, Participant& to, const protocol::ClientMessage& message,
            const protocol::Rid& rid);
  // Adds a spectator and sends it `room` (+ `race_state`); false if refused (error sent).
  bool add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid);
  void remove_spectator(const Participant* spectator);
  // A racer's new connection: sends it `room`, then `race_state` when racing.
  void reconnected(Player& player, Participant& to);
  // A racer's connection is gone: they keep their place for --grace seconds.
  void disconnected(Player& player);
  // This room as list_rooms shows it.
  protocol::RoomView summary() const;

 private:
  enum class State { waiting, countdown, racing, finishing };
  struct Racer {
    std::shared_ptr<Player> player;
    bool ready = false;
    bool connected = true;
    bool left = false;  // left or timed out during a race: kept for the standings only
    std::optional<engine::Game> game;
    std::string game_id;
    std::shared_ptr<boost::asio::steady_timer> grace;
    double cap_tokens = 0;  // max_moves_per_second bucket
    std::chrono::steady_clock::time_point cap_last{};
  };
  using Clock = std::chrono::steady_clock;

  Racer* find(const Player& player);
  protocol::RoomView view_locked() const;
  std::vector<protocol::RacerGame> games_locked() const;
  void send_to(const Racer& racer, const SharedMessage& message) const;
  void send_error(Participant& to, protocol::ErrorCode code, std::string_view text,
                  const protocol::Rid& rid) const;
  // Sends message to every connected racer and spectator but `except`.
  void broadcast(const SharedMessage& message, const Participant* except = nullptr);
  // `room` to everyone; `direct` gets its own copy carrying rid.
  void broadcast_room(Participant* direct, const protocol::Rid& rid);
  void maybe_start_locked();
  void start_race_locked();
  void remove_racer_locked(std::size_t index);
  void close_locked();
  bool allow_move_locked(Racer& racer);
  // Ends the race when one of PROTOCOL.md §5's conditions holds.
  void check_end_locked(std::optional<std::size_t> target_winner);
  void end_race_locked(std::string_view reason, std::optional<std::size_t> target_winner);
  void forfeit_locked(Racer& racer);
  // The racer leaves a running race: forfeited, kept in the standings, out of the room.
  void drop_out_locked(Racer& racer);
  // If leaving was the host, the longest-present racer still in becomes host.
  void hand_over_host_locked(const std::string& leaving);
  static boost::asio::awaitable<void> finish(std::shared_ptr<Room> self, RaceRecord record,
                                             std::string race_over);

  const std::string code_;
  const protocol::RoomOptions options_;
  RoomServices& services_;
  mutable std::mutex mutex_;
  State state_ = State::waiting;
  bool closed_ = false;
  std::string host_;
  std::vector<Racer> racers_;  // in joining order
  std::vector<std::weak_ptr<Participant>> spectators_;
  boost::asio::steady_timer countdown_timer_;
  boost::asio::steady_timer clock_timer_;
  Clock::time_point race_deadline_{};
  std::int64_t race_started_at_ = 0;  // Unix ms
};

}  // namespace tilerace::server
