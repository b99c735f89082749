#pragma once
// A room as the server runs it: its RaceState behind a mutex, one timer kept at the state's
// next deadline, and the recording of finished races through the StoreWorker — race_over goes
// out only once the result is committed; a failed recording is retried with backoff (the
// race journal keeps it across a restart meanwhile). Every public function takes the mutex
// and may be called from any thread; callers hold a shared_ptr to the room for the call.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/game/bot_pool.hpp"
#include "server/game/race_state.hpp"
#include "server/store/store_worker.hpp"

namespace tilerace::server {

class MoveJournal;

struct RoomServices {
  boost::asio::any_io_executor executor;  // timers and the recording coroutine
  StoreWorker* store = nullptr;
  Metrics* metrics = nullptr;
  RaceSettings settings;
  std::function<void(const std::string& code)> on_closed;  // the room has nobody left
  BotPool* bots = nullptr;            // null: this server seats no computer opponents
  double bot_moves_per_second = 3.0;  // a bot's pace, so that a race stays watchable
  MoveJournal* journal = nullptr;     // cluster mode: where moves are journaled (else none)
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  using Time = RaceState::Time;

  // A new, empty room.
  static std::shared_ptr<Room> make(std::string code, const protocol::RoomOptions& options,
                                    RoomServices services);
  // A journaled race going on again (RaceState::restore); its players still in the race are
  // linked to it. players: record.racers' players in order, none null (the computer's part
  // is a BotRacer's player: RoomRegistry::restore seats them). Null when it cannot be rebuilt.
  static std::shared_ptr<Room> restore(const ActiveRaceRecord& record,
                                       std::vector<std::shared_ptr<Player>> players,
                                       RoomServices services);

  const std::string& code() const noexcept { return code_; }
  const RoomServices& services() const noexcept { return services_; }
  bool is_public() const noexcept { return public_; }
  // Moves are journaled (cluster mode): people's moves go through play_acked.
  bool journaled() const noexcept { return services_.journal != nullptr; }

  // See RaceState for each; they answer `to` directly, errors included.
  void join(const std::shared_ptr<Player>& player, Participant& to, const protocol::Rid& rid);
  void leave(Player& player, Participant& to, const protocol::Rid& rid);
  void set_ready(Player& player, bool ready, Participant& to, const protocol::Rid& rid);
  void play(Player& player, Participant& to, const protocol::ClientMessage& message,
            const protocol::Rid& rid);
  // A person's move, slide or resignation. With a journal, the answer to `to` (moved, game,
  // or an error) is sent only once the journal has the move: a racer is never told of a move
  // a survivor adopting this race would not know. The others see the race_update at once.
  // The caller keeps the room, `to` and message alive until it resumes.
  boost::asio::awaitable<void> play_acked(Player& player, Participant& to,
                                          const protocol::ClientMessage& message,
                                          protocol::Rid rid);
  void emote(Player& player, Participant& to, protocol::Emote emote, const protocol::Rid& rid);
  void seat(const std::shared_ptr<Player>& a, const std::shared_ptr<Player>& b,
            std::optional<Time> a_expected_by = std::nullopt);
  void announce(Participant* direct, const protocol::Rid& rid);
  bool add_spectator(const std::shared_ptr<Participant>& spectator, const protocol::Rid& rid);
  void remove_spectator(const Participant* spectator);
  void reconnected(Player& player, Participant& to);
  void disconnected(Player& player);
  protocol::RoomView summary() const;
  std::optional<ActiveRaceRecord> journal();
  // A copy of player's race game while the race runs and that game is being played.
  std::optional<engine::Game> racing_game(const Player& player);

  // Server shutdown: no timer is armed and no retry waits from now on; what runs finishes.
  void stop();

 private:
  explicit Room(RoomServices services);

  // Runs f(state, now) under the mutex, then settles what it changed.
  template <class F>
  auto act(F&& f);
  // Hands a finished race to the recorder, tells the registry when the room closed, and keeps
  // the timer at the state's next deadline.
  void settle_locked();
  static boost::asio::awaitable<void> record(std::shared_ptr<Room> self, RaceResult result);

  RoomServices services_;
  std::string code_;
  bool public_ = false;
  mutable std::mutex mutex_;
  std::optional<RaceState> state_;
  boost::asio::steady_timer timer_;
  std::optional<Time> armed_;        // the deadline timer_ waits for
  boost::asio::steady_timer retry_;  // backoff between recording attempts
  bool stopped_ = false;
  bool closed_ = false;
  std::string in_store_race_;  // the race known to be in the store's journal (play_acked)
};

}  // namespace tilerace::server
