#include "bench/loadgen/fleet.hpp"

#include <fmt/core.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <charconv>
#include <deque>
#include <random>
#include <variant>

#include "engine/bitboard.hpp"
#include "engine/bot.hpp"

namespace tilerace::loadgen {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using asio::as_tuple;
using asio::use_awaitable;
using json = nlohmann::json;

enum class Role { racer, spectator, solo, idle, echo, handshake };

using PlainWs = websocket::stream<beast::tcp_stream>;
using TlsWs = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

// One race room: its code once the first racer has created it, and its racers for fan-out.
struct Room {
  explicit Room(asio::io_context& ioc) : code_known(ioc) {
    code_known.expires_at(Clock::time_point::max());
  }
  std::string code;
  asio::steady_timer code_known;  // cancelled when code is set
  std::vector<Client*> racers;
};

namespace {

// The hot messages (moved, race_update, echoes) are read with these instead of a JSON parse,
// so the load generator spends its core on sending. Keys are unique in those messages.
// key is given with its quotes and colon: string_field(text, "\"type\":\"").
std::string_view string_field(std::string_view text, std::string_view pattern) {
  const auto at = text.find(pattern);
  if (at == std::string_view::npos) return {};
  const auto begin = at + pattern.size();
  const auto end = text.find('"', begin);
  return end == std::string_view::npos ? std::string_view{} : text.substr(begin, end - begin);
}

long int_field(std::string_view text, std::string_view pattern) {
  const auto at = text.find(pattern);
  long value = -1;
  if (at != std::string_view::npos) {
    const char* begin = text.data() + at + pattern.size();
    std::from_chars(begin, text.data() + text.size(), value);
  }
  return value;
}

constexpr std::array<const char*, 4> kMoves = {
    R"({"type":"move","dir":"down"})", R"({"type":"move","dir":"left"})",
    R"({"type":"move","dir":"right"})", R"({"type":"move","dir":"up"})"};

// The move message of a direction (engine order: up, down, left, right).
constexpr std::array<const char*, 4> kMoveOf = {kMoves[3], kMoves[0], kMoves[1], kMoves[2]};

// The 4×4 board after "board": in text (the first 16 numbers), as a bitboard; 0 if absent.
tilerace::engine::bitboard::Board board_field(std::string_view text) {
  auto at = text.find(R"("board":)");
  if (at == std::string_view::npos) return 0;
  tilerace::engine::bitboard::Board board = 0;
  const char* p = text.data() + at + 8;
  const char* end = text.data() + text.size();
  for (int cell = 0; cell < 16 && p < end;) {
    if (*p < '0' || *p > '9') {
      ++p;
      continue;
    }
    std::uint64_t value = 0;
    p = std::from_chars(p, end, value).ptr;
    if (value != 0) {
      board |= static_cast<tilerace::engine::bitboard::Board>(std::countr_zero(value) & 0xF)
               << (4 * cell);
    }
    ++cell;
  }
  return board;
}

}  // namespace

class Client : public std::enable_shared_from_this<Client> {
 public:
  Client(Fleet& fleet, asio::io_context& ioc, Role role, Room* room, std::size_t index,
         std::string port)
      : fleet_(fleet),
        role_(role),
        room_(room),
        index_(index),
        port_(std::move(port)),
        ioc_(ioc),
        ws_(std::in_place_type<PlainWs>, ioc),
        wake_(ioc),
        rng_(static_cast<unsigned>(index * 7919 + static_cast<std::size_t>(role))) {
    if (auto* context = fleet.tls_context()) ws_.emplace<TlsWs>(ioc, *context);
  }

  // Connects, says hello (not for echo), then plays its role until closed.
  asio::awaitable<void> run();
  void stop();

  // Send time of the move that will make this racer's move count `moves` (fan-out latency).
  Clock::time_point sent_for(long moves) const { return sent_ring_[moves % kRing]; }

 private:
  static constexpr std::size_t kRing = 64;

  // Connects and upgrades (a handshake client: only the TLS handshake). False on any failure.
  asio::awaitable<bool> connect();
  // Role::handshake: a new connection and full handshake after another until stopped.
  asio::awaitable<void> handshake_loop();
  // Says hello (not for echo) and reads until the connection ends.
  asio::awaitable<void> play();
  asio::awaitable<void> write_loop();
  void handle(std::string_view text);
  void handle_setup(std::string_view type, std::string_view text);
  // Sends {"type":type,"code":<the room's code>} once the room's creator has the code.
  void send_with_code(const char* type);
  void send(std::string text);
  bool may_move() const { return playing_ && !in_flight_ && !stopping_; }
  const char* next_move();
  void settle();
  void start_playing();

  // A redirect: a new client with this one's player carries on at the node it names.
  void follow(const json& redirect);
  // f(the WebSocket stream, plain or over TLS).
  template <typename F>
  decltype(auto) with_ws(F&& f) {
    return std::visit(std::forward<F>(f), ws_);
  }

  Fleet& fleet_;
  Role role_;
  Room* room_;
  std::size_t index_;
  std::string port_;
  asio::ip::tcp::resolver::results_type endpoints_;  // resolved on the first connect
  asio::io_context& ioc_;
  std::variant<PlainWs, TlsWs> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;
  asio::steady_timer wake_;  // the writer sleeps on it
  std::minstd_rand rng_;
  std::string id_;
  std::string token_;
  std::optional<Clock::time_point> asked_at_;    // when join_room/spectate was sent
  std::optional<Clock::time_point> redirected_;  // a follower: when its first request went
  bool handed_over_ = false;
  bool open_ = false, settled_ = false, playing_ = false, in_flight_ = false;
  bool ready_sent_ = false, stopping_ = false;
  Clock::time_point sent_at_, next_move_at_;
  std::array<Clock::time_point, kRing> sent_ring_{};
  long moves_ = 0;
  std::size_t attempt_ = 0;                      // corner strategy: index into kMoves
  tilerace::engine::bitboard::Board board_ = 0;  // bot strategy: the board the server sent last
};

asio::awaitable<bool> Client::connect() {
  const FleetConfig& cfg = fleet_.config();
  if (endpoints_.empty()) {
    asio::ip::tcp::resolver resolver(ioc_);
    auto [rec, endpoints] =
        co_await resolver.async_resolve(cfg.host, port_, as_tuple(use_awaitable));
    if (rec) co_return false;
    endpoints_ = std::move(endpoints);
  }
  auto& tcp = with_ws([](auto& ws) -> beast::tcp_stream& { return beast::get_lowest_layer(ws); });
  tcp.expires_after(std::chrono::seconds(30));
  auto [cec, ep] = co_await tcp.async_connect(endpoints_, as_tuple(use_awaitable));
  if (cec) co_return false;
  tcp.socket().set_option(asio::ip::tcp::no_delay(true));
  if (auto* tls = std::get_if<TlsWs>(&ws_)) {
    auto [tec] = co_await tls->next_layer().async_handshake(asio::ssl::stream_base::client,
                                                            as_tuple(use_awaitable));
    if (tec) co_return false;
  }
  tcp.expires_never();
  if (role_ == Role::handshake) co_return true;
  auto [hec] = co_await with_ws([&](auto& ws) {
    ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    return ws.async_handshake(cfg.host, "/ws", as_tuple(use_awaitable));
  });
  co_return !hec;
}

asio::awaitable<void> Client::run() {
  auto self = shared_from_this();
  const bool connected = co_await connect();
  fleet_.on_connected(connected);
  if (!connected) {
    ++fleet_.stats().errors["connect"];
    fleet_.on_failed();
    co_return;
  }
  open_ = true;
  if (role_ == Role::handshake) {
    settle();
    co_await handshake_loop();
  } else {
    co_await play();
  }
  open_ = false;
  if (!stopping_) ++fleet_.stats().errors["closed"];
  if (!settled_ && !handed_over_) fleet_.on_failed();
  stopping_ = true;
  wake_.cancel();
  fleet_.on_closed();
}

asio::awaitable<void> Client::handshake_loop() {
  Stats& stats = fleet_.stats();
  while (!stopping_) {
    auto& tls = ws_.emplace<TlsWs>(ioc_, *fleet_.tls_context());  // closes the last connection
    const auto started = Clock::now();
    if (!co_await connect()) {
      ++stats.errors["handshake"];
      co_return;
    }
    if (stats.measuring) {
      ++stats.replies;
      stats.reply_latency.add(Clock::now() - started);
    }
    beast::get_lowest_layer(tls).close();
  }
}

asio::awaitable<void> Client::play() {
  asio::co_spawn(ioc_, write_loop(), asio::detached);
  if (role_ == Role::echo) {
    settle();
    playing_ = index_ != SIZE_MAX;  // listeners (index SIZE_MAX) only hold a connection
    wake_.cancel();
  } else if (!token_.empty()) {
    send(json{{"type", "hello"}, {"name", "load"}, {"token", token_}}.dump());
  } else {
    send(R"({"type":"hello","name":")" + fleet_.new_name() + "\"}");
  }
  for (;;) {
    buffer_.clear();
    auto [ec, bytes] =
        co_await with_ws([&](auto& ws) { return ws.async_read(buffer_, as_tuple(use_awaitable)); });
    if (ec) break;
    const auto data = buffer_.cdata();
    handle({static_cast<const char*>(data.data()), data.size()});
  }
}

void Client::stop() {
  stopping_ = true;
  playing_ = false;
  wake_.cancel();
}

void Client::send(std::string text) {
  outbox_.push_back(std::move(text));
  wake_.cancel();
}

void Client::settle() {
  if (settled_) return;
  settled_ = true;
  fleet_.on_settled();
}

const char* Client::next_move() {
  switch (fleet_.config().strategy) {
    case Strategy::random: return kMoves[rng_() % kMoves.size()];
    case Strategy::bot: {
      thread_local tilerace::engine::Bot bot;
      const auto dir = bot.choose(board_, tilerace::engine::BotStrength::medium,
                                  static_cast<std::uint64_t>(moves_));
      return dir ? kMoveOf[static_cast<std::size_t>(*dir)] : kMoves[0];
    }
    case Strategy::corner: break;
  }
  return kMoves[attempt_];
}

void Client::start_playing() {
  playing_ = true;
  in_flight_ = false;
  moves_ = 0;
  const double rate = fleet_.config().rate;
  // A random phase, so that paced players do not all send in the same instant.
  next_move_at_ = Clock::now();
  if (rate > 0) {
    next_move_at_ += std::chrono::microseconds(rng_() % static_cast<unsigned>(1e6 / rate + 1));
  }
  wake_.cancel();
}

asio::awaitable<void> Client::write_loop() {
  auto self = shared_from_this();
  const double rate = fleet_.config().rate;
  const auto interval = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(rate > 0 ? 1.0 / rate : 0.0));
  while (open_ && !stopping_) {
    if (!outbox_.empty()) {
      const std::string text = std::move(outbox_.front());
      outbox_.pop_front();
      auto [ec, n] = co_await with_ws(
          [&](auto& ws) { return ws.async_write(asio::buffer(text), as_tuple(use_awaitable)); });
      if (ec) co_return;
      continue;
    }
    const auto now = Clock::now();
    if (may_move() && now >= next_move_at_) {
      const char* move = role_ == Role::echo ? R"({"type":"move","dir":"left"})" : next_move();
      in_flight_ = true;
      sent_at_ = now;
      sent_ring_[(moves_ + 1) % kRing] = now;
      // Paced: keep to the schedule, but never send a burst to catch up.
      next_move_at_ = std::max(next_move_at_ + interval, now);
      auto [ec, n] = co_await with_ws([&](auto& ws) {
        return ws.async_write(asio::buffer(move, std::strlen(move)), as_tuple(use_awaitable));
      });
      if (ec) co_return;
      continue;
    }
    wake_.expires_at(may_move() ? next_move_at_ : Clock::time_point::max());
    co_await wake_.async_wait(as_tuple(use_awaitable));
  }
  if (!open_) co_return;
  auto [ec] = co_await with_ws([](auto& ws) {
    return ws.async_close(websocket::close_code::normal, as_tuple(use_awaitable));
  });
  (void)ec;  // the reader sees the end either way
}

void Client::handle(std::string_view text) {
  Stats& stats = fleet_.stats();
  const auto now = Clock::now();
  if (stats.measuring) {
    ++stats.messages_in;
    stats.bytes_in += text.size();
  }
  if (role_ == Role::echo) {
    if (!in_flight_) return;
    in_flight_ = false;
    if (stats.measuring) {
      ++stats.replies;
      stats.reply_latency.add(now - sent_at_);
    }
    wake_.cancel();
    return;
  }
  const std::string_view type = string_field(text, R"("type":")");
  if (type == "moved") {
    in_flight_ = false;
    const long moves = int_field(text, R"("moves":)");
    const bool changed = text.find("\"changed\":true") != std::string_view::npos;
    if (stats.measuring) {
      ++stats.replies;
      stats.changed += changed;
      stats.reply_latency.add(now - sent_at_);
    }
    if (changed) {
      moves_ = moves;
      if (fleet_.config().strategy == Strategy::bot) board_ = board_field(text);
      attempt_ = attempt_ == 0 ? 1 : 0;  // corner: down, left, down, left …
    } else {
      attempt_ = (attempt_ + 1) % kMoves.size();  // … else right, then up
    }
    if (string_field(text, R"("state":")") != "playing") {
      playing_ = false;
      if (role_ == Role::solo) {
        if (stats.measuring) ++stats.games_finished;
        send(R"({"type":"new_game","mode":"classic","size":)" +
             std::to_string(fleet_.config().size) + "}");
      }
    }
    wake_.cancel();
    return;
  }
  if (type == "race_update") {
    if (!stats.measuring || room_ == nullptr) return;
    const std::string_view player = string_field(text, R"("player":")");
    const long moves = int_field(text, R"("moves":)");
    for (const Client* racer : room_->racers) {
      if (racer->id_ == player && moves > 0) {
        stats.fanout_latency.add(now - racer->sent_for(moves));
        break;
      }
    }
    return;
  }
  if (type == "error") {
    ++stats.errors[std::string(string_field(text, R"("code":")"))];
    if (in_flight_) {  // the move was refused: go on with the next
      in_flight_ = false;
      wake_.cancel();
    }
    return;
  }
  handle_setup(type, text);
}

void Client::send_with_code(const char* type) {
  asio::co_spawn(
      ioc_,
      [self = shared_from_this(), type]() -> asio::awaitable<void> {
        if (self->room_->code.empty()) {
          co_await self->room_->code_known.async_wait(as_tuple(use_awaitable));
        }
        if (self->room_->code.empty() || self->stopping_) co_return;
        if (!self->asked_at_) self->asked_at_ = Clock::now();
        self->send(json{{"type", type}, {"code", self->room_->code}}.dump());
      },
      asio::detached);
}

// The rare messages: parsed properly.
void Client::handle_setup(std::string_view type, std::string_view text) {
  const FleetConfig& cfg = fleet_.config();
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return;
  if (type == "welcome") {
    id_ = j["player"]["id"].get<std::string>();
    token_ = j["token"].get<std::string>();
    switch (role_) {
      case Role::racer:
        if (index_ == 0) {
          send(json{{"type", "create_room"},
                    {"mode", "classic"},
                    {"size", cfg.size},
                    {"time_limit", 3600},
                    {"max_players", cfg.racers_per_room},
                    {"public", cfg.public_rooms}}
                   .dump());
        } else {
          send_with_code("join_room");
        }
        break;
      case Role::spectator: send_with_code("spectate"); break;
      case Role::solo:
        send(R"({"type":"new_game","mode":"classic","size":)" + std::to_string(cfg.size) + "}");
        break;
      case Role::idle: settle(); break;
      case Role::echo:
      case Role::handshake: break;  // never say hello
    }
    return;
  }
  if (type == "redirect") return follow(j);
  if (type == "room") {
    const json& room = j["room"];
    if (redirected_) {
      fleet_.stats().redirect_latency.add(Clock::now() - *redirected_);
      redirected_.reset();
    }
    if (role_ == Role::spectator) return settle();
    if (role_ != Role::racer) return;
    if (index_ == 0 && room_->code.empty()) {
      room_->code = room["code"].get<std::string>();
      room_->code_known.cancel();
    }
    if (!ready_sent_ && room["state"] == "waiting" &&
        room["players"].size() == cfg.racers_per_room) {
      ready_sent_ = true;
      send(R"({"type":"ready","ready":true})");
    }
    return;
  }
  if (type == "race_start") {
    settle();
    if (role_ == Role::racer) {
      board_ = board_field(j["games"][id_].dump());
      start_playing();
    }
    return;
  }
  if (type == "race_over") {
    playing_ = false;
    if (role_ == Role::racer) {
      if (index_ == 0 && fleet_.stats().measuring) ++fleet_.stats().races_finished;
      if (!stopping_) send(R"({"type":"ready","ready":true})");  // a rematch
    }
    return;
  }
  if (type == "game" && role_ == Role::solo && j["game"]["state"] == "playing") {
    board_ = board_field(j["game"].dump());
    settle();
    start_playing();
  }
}

void Client::follow(const json& redirect) {
  const std::string url = redirect.value("url", "");
  // ws://host:port/path: this tool connects to cfg.host and takes the port.
  const auto colon = url.rfind(':');
  const auto slash = url.find('/', colon == std::string::npos ? 0 : colon);
  if (colon == std::string::npos || slash == std::string::npos || !room_) {
    ++fleet_.stats().errors["redirect"];
    return;
  }
  auto follower = std::make_shared<Client>(fleet_, ioc_, role_, room_, index_,
                                           url.substr(colon + 1, slash - colon - 1));
  follower->token_ = token_;
  follower->redirected_ = asked_at_.value_or(Clock::now());
  handed_over_ = true;
  stop();  // this connection closes; the follower takes its place
  fleet_.hand_over(this, std::move(follower));
}

// ---- Fleet ---------------------------------------------------------------------------------

Fleet::Fleet(asio::io_context& ioc, FleetConfig config, Stats& stats)
    : ioc_(ioc),
      config_(std::move(config)),
      stats_(stats),
      name_prefix_(fmt::format("ld{:04x}-", std::random_device{}() & 0xFFFF)),
      changed_(ioc) {
  if (config_.tls) {
    tls_.emplace(asio::ssl::context::tls_client);
    tls_->set_verify_mode(asio::ssl::verify_none);  // a benchmark: the cost is the server's
  }
  std::string_view rest = config_.port;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    ports_.emplace_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  if (ports_.empty()) ports_.push_back(config_.port);
}

std::string Fleet::new_name() { return name_prefix_ + std::to_string(++names_); }

const std::string& Fleet::port_for(std::size_t r, std::size_t k) const {
  return ports_[(r + k) % ports_.size()];
}

void Fleet::hand_over(Client* from, std::shared_ptr<Client> follower) {
  for (auto& room : rooms_) {
    for (auto*& racer : room->racers) {
      if (racer == from) racer = follower.get();
    }
  }
  ++handed_over_;
  ++connecting_;
  clients_.push_back(follower);
  asio::co_spawn(ioc_, follower->run(), asio::detached);
}

Fleet::~Fleet() = default;

void Fleet::launch_races(std::size_t racers) {
  std::vector<std::shared_ptr<Client>> batch;
  const std::size_t rooms = racers / config_.racers_per_room;
  for (std::size_t r = 0; r < rooms; ++r) {
    auto room = std::make_unique<Room>(ioc_);
    for (std::size_t i = 0; i < config_.racers_per_room; ++i) {
      // The creator comes first in the batch, so that rooms fill in order.
      auto c = std::make_shared<Client>(*this, ioc_, Role::racer, room.get(), i, port_for(r, i));
      room->racers.push_back(c.get());
      batch.push_back(std::move(c));
    }
    for (std::size_t s = 0; s < config_.spectators; ++s) {
      batch.push_back(std::make_shared<Client>(*this, ioc_, Role::spectator, room.get(), s,
                                               port_for(r, 1 + s)));
    }
    rooms_.push_back(std::move(room));
  }
  asio::co_spawn(ioc_, start_all(std::move(batch)), asio::detached);
}

void Fleet::launch_solo(std::size_t players) {
  std::vector<std::shared_ptr<Client>> batch;
  for (std::size_t i = 0; i < players; ++i) {
    batch.push_back(std::make_shared<Client>(*this, ioc_, Role::solo, nullptr, i, port_for(i, 0)));
  }
  asio::co_spawn(ioc_, start_all(std::move(batch)), asio::detached);
}

void Fleet::launch_idle(std::size_t players) {
  std::vector<std::shared_ptr<Client>> batch;
  for (std::size_t i = 0; i < players; ++i) {
    batch.push_back(std::make_shared<Client>(*this, ioc_, Role::idle, nullptr, i, port_for(i, 0)));
  }
  asio::co_spawn(ioc_, start_all(std::move(batch)), asio::detached);
}

void Fleet::launch_handshakes(std::size_t clients) {
  std::vector<std::shared_ptr<Client>> batch;
  for (std::size_t i = 0; i < clients; ++i) {
    batch.push_back(
        std::make_shared<Client>(*this, ioc_, Role::handshake, nullptr, i, port_for(i, 0)));
  }
  asio::co_spawn(ioc_, start_all(std::move(batch)), asio::detached);
}

void Fleet::launch_echo(std::size_t senders, std::size_t listeners) {
  std::vector<std::shared_ptr<Client>> batch;
  for (std::size_t i = 0; i < senders + listeners; ++i) {
    const std::size_t index = i < senders ? i : SIZE_MAX;
    batch.push_back(
        std::make_shared<Client>(*this, ioc_, Role::echo, nullptr, index, port_for(i, 0)));
  }
  asio::co_spawn(ioc_, start_all(std::move(batch)), asio::detached);
}

asio::awaitable<void> Fleet::start_all(std::vector<std::shared_ptr<Client>> batch) {
  for (auto& client : batch) {
    while (connecting_ >= config_.max_connecting && !stopping_) {
      changed_.expires_at(Clock::time_point::max());
      co_await changed_.async_wait(as_tuple(use_awaitable));
    }
    if (stopping_) co_return;
    ++connecting_;
    clients_.push_back(client);
    asio::co_spawn(ioc_, client->run(), asio::detached);
  }
}

void Fleet::notify() { changed_.cancel(); }
void Fleet::on_settled() {
  ++settled_;
  notify();
}
void Fleet::on_failed() {
  ++failed_;
  notify();
}
void Fleet::on_connected(bool ok) {
  --connecting_;
  open_ += ok;
  notify();
}
void Fleet::on_closed() {
  --open_;
  notify();
}

asio::awaitable<std::size_t> Fleet::wait_settled(Clock::time_point deadline) {
  while (settled_ + failed_ + handed_over_ < clients_.size() || connecting_ > 0) {
    if (Clock::now() >= deadline) break;
    changed_.expires_at(deadline);
    co_await changed_.async_wait(as_tuple(use_awaitable));
  }
  co_return settled_;
}

asio::awaitable<void> Fleet::stop(Clock::time_point deadline) {
  stopping_ = true;
  for (auto& room : rooms_) room->code_known.cancel();
  for (auto& client : clients_) client->stop();
  while (open_ > 0 && Clock::now() < deadline) {
    changed_.expires_at(deadline);
    co_await changed_.async_wait(as_tuple(use_awaitable));
  }
}

}  // namespace tilerace::loadgen
