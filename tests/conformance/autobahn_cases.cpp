#include "tests/conformance/autobahn_cases.hpp"

#include <chrono>
#include <utility>

namespace tilerace::conformance {

using namespace std::chrono_literals;
using testing::kBinary;
using testing::kClose;
using testing::kContinuation;
using testing::kPing;
using testing::kPong;
using testing::kText;
using testing::RawWs;

namespace {

// Each step of a case is a check; the first one not met ends the case as failed.
#define STEP(check)                                        \
  do {                                                     \
    if (std::string problem = (check); !problem.empty())   \
      return Outcome{Verdict::failed, std::move(problem)}; \
  } while (false)

std::string frame(std::uint8_t op, std::string_view payload, bool fin = true,
                  std::uint8_t rsv = 0) {
  return RawWs::frame(op, payload, fin, rsv);
}

// How a case's bytes go out: at once, a frame to a send, or an octet to a send.
enum class Chops { none, frames, octets };

void send(Peer& p, const std::vector<std::string>& frames, Chops chops) {
  if (chops == Chops::frames) {
    for (const std::string& f : frames) p.ws().send_bytes(f);
    return;
  }
  std::string all;
  for (const std::string& f : frames) all += f;
  if (chops == Chops::octets) {
    p.ws().send_chopped(all, 1);
  } else {
    p.ws().send_bytes(all);
  }
}

const char* chops_name(Chops c) {
  return c == Chops::none     ? ""
         : c == Chops::frames ? ", a frame to a send"
                              : ", an octet to a send";
}

const std::string kKosme = "\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5";  // κόσμε
const std::string kHello =
    "Hello-\xc2\xb5@\xc3\x9f\xc3\xb6\xc3\xa4\xc3\xbc\xc3\xa0\xc3\xa1-UTF-8!!";

class Cases {
 public:
  explicit Cases(std::size_t limit) : limit_(limit) {}

  void add(std::string id, std::string what, bool on_game, std::function<Outcome(Peer&)> run) {
    cases_.push_back({std::move(id), std::move(what), on_game, std::move(run)});
  }

  std::vector<Case> all() && {
    framing();
    pings();
    reserved_bits();
    opcodes();
    fragmentation();
    utf8();
    utf8_sequences();
    closing();
    limits();
    return std::move(cases_);
  }

 private:
  // 1: text messages of the frame lengths' edges, echoed; binary refused.
  void framing() {
    const std::size_t sizes[] = {0, 125, 126, 127, 128, 65535, 65536, 65536};
    for (int i = 0; i < 8; ++i) {
      const std::size_t size = sizes[i];
      const std::size_t chop = i == 7 ? 997 : 0;
      const std::string n = std::to_string(i + 1);
      add("1.1." + n,
          "text of " + std::to_string(size) + " bytes" + (chop ? " in chops of 997" : "") +
              ": echoed, clean close",
          false, [size, chop](Peer& p) {
            const std::string text(size, '*');
            const std::string f = frame(kText, p.carry(text));
            chop ? p.ws().send_chopped(f, chop) : p.ws().send_bytes(f);
            STEP(p.echo(text));
            STEP(p.clean_close());
            return Outcome{};
          });
      add("1.2." + n, "binary of " + std::to_string(size) + " bytes: refused (1003)", false,
          [size, chop](Peer& p) {
            const std::string f = frame(kBinary, std::string(size, '\xfe'));
            chop ? p.ws().send_chopped(f, chop) : p.ws().send_bytes(f);
            STEP(p.closed_by_server({1003}));
            return Outcome{Verdict::refused};
          });
    }
  }

  // 2: pings answered with their payload, unsolicited pongs ignored, oversized pings fail.
  void pings() {
    const auto ping_pong = [this](std::string id, std::string what, std::string payload,
                                  Chops chops) {
      add(std::move(id), std::move(what), false, [payload, chops](Peer& p) {
        send(p, {frame(kPing, payload)}, chops);
        STEP(p.pong(payload));
        STEP(p.clean_close());
        return Outcome{};
      });
    };
    ping_pong("2.1", "ping without payload: pong", "", Chops::none);
    ping_pong("2.2", "ping with text: pong with it", "Hello, world!", Chops::none);
    ping_pong("2.3", "ping with binary: pong with it",
              std::string("\x00\xff\xfe\xfd\xfc\xfb\x00\xff", 8), Chops::none);
    ping_pong("2.4", "ping of 125 bytes: pong with them", std::string(125, '\xfe'), Chops::none);
    add("2.5", "ping of 126 bytes: fails (1002)", false, [](Peer& p) {
      p.ws().send(kPing, std::string(126, '\xfe'));
      STEP(p.closed({1002}));
      return Outcome{};
    });
    ping_pong("2.6", "ping of 125 bytes, an octet to a send: pong", std::string(125, '\xfe'),
              Chops::octets);
    add("2.7", "unsolicited pong: nothing, clean close", false, [](Peer& p) {
      p.ws().send(kPong, "");
      STEP(p.clean_close());
      return Outcome{};
    });
    add("2.8", "unsolicited pong with payload: nothing, clean close", false, [](Peer& p) {
      p.ws().send(kPong, "unsolicited pong payload");
      STEP(p.clean_close());
      return Outcome{};
    });
    add("2.9", "unsolicited pong, then ping: only the ping's pong", false, [](Peer& p) {
      send(p, {frame(kPong, "unsolicited pong payload"), frame(kPing, "ping payload")},
           Chops::none);
      STEP(p.pong("ping payload"));
      STEP(p.clean_close());
      return Outcome{};
    });
    for (const Chops chops : {Chops::none, Chops::octets}) {
      add(chops == Chops::none ? "2.10" : "2.11",
          std::string("10 pings: 10 pongs in order") + chops_name(chops), false, [chops](Peer& p) {
            std::vector<std::string> frames;
            for (int i = 0; i < 10; ++i)
              frames.push_back(frame(kPing, "payload-" + std::to_string(i)));
            send(p, frames, chops);
            for (int i = 0; i < 10; ++i) STEP(p.pong("payload-" + std::to_string(i)));
            STEP(p.clean_close());
            return Outcome{};
          });
    }
  }

  // 3: any reserved bit fails the connection; what came before it is answered, nothing after.
  void reserved_bits() {
    add("3.1", "text with RSV = 1: fails (1002)", false, [](Peer& p) {
      p.ws().send_bytes(frame(kText, "Hello, world!", true, 1));
      STEP(p.closed({1002}));
      return Outcome{};
    });
    const std::pair<int, Chops> after_echo[] = {
        {2, Chops::none}, {3, Chops::frames}, {4, Chops::octets}};
    for (const auto& [rsv, chops] : after_echo) {
      add("3." + std::to_string(rsv),
          "text, text with RSV = " + std::to_string(rsv) + ", ping: echo, fails (1002), no pong" +
              chops_name(chops),
          false, [rsv, chops](Peer& p) {
            send(p,
                 {frame(kText, "Hello, world!"),
                  frame(kText, "Hello, world!", true, static_cast<std::uint8_t>(rsv)),
                  frame(kPing, "")},
                 chops);
            STEP(p.echo("Hello, world!"));
            STEP(p.closed({1002}));
            return Outcome{};
          });
    }
    const std::tuple<const char*, std::uint8_t, std::string, std::uint8_t> alone[] = {
        {"3.5", kBinary, std::string("\x00\xff\xfe\xfd\xfc\xfb\x00\xff", 8), 5},
        {"3.6", kPing, "Hello, world!", 6},
        {"3.7", kClose, close_code(1000), 7}};
    for (const auto& [id, op, payload, rsv] : alone) {
      add(id,
          "opcode " + std::to_string(op) + " with RSV = " + std::to_string(rsv) + ": fails (1002)",
          false, [op, payload, rsv](Peer& p) {
            p.ws().send_bytes(frame(op, payload, true, rsv));
            STEP(p.closed({1002}));
            return Outcome{};
          });
    }
  }

  // 4: reserved opcodes fail the connection.
  void opcodes() {
    const std::pair<std::string, int> ops[] = {
        {"4.1.1", 3},  {"4.1.2", 4},  {"4.1.3", 5},  {"4.1.4", 6},  {"4.1.5", 7},
        {"4.2.1", 11}, {"4.2.2", 12}, {"4.2.3", 13}, {"4.2.4", 14}, {"4.2.5", 15}};
    for (const auto& [id, op] : ops) {
      const bool after_echo = id.back() >= '3';
      const bool payload = id.back() != '1' && id.back() != '3';
      add(id,
          std::string(after_echo ? "text, " : "") + "reserved opcode " + std::to_string(op) +
              (payload ? " with payload" : "") +
              (after_echo ? ", ping: echo, fails (1002), no pong" : ": fails (1002)"),
          false, [op, after_echo, payload](Peer& p) {
            std::vector<std::string> frames;
            if (after_echo) frames.push_back(frame(kText, "Hello, world!"));
            frames.push_back(
                frame(static_cast<std::uint8_t>(op), payload ? "reserved opcode payload" : ""));
            if (after_echo) frames.push_back(frame(kPing, ""));
            send(p, frames, Chops::none);
            if (after_echo) STEP(p.echo("Hello, world!"));
            STEP(p.closed({1002}));
            return Outcome{};
          });
    }
  }

  // 5: fragments reassembled, control frames between them answered, continuations that
  // continue nothing and fragmented control frames fail.
  void fragmentation() {
    add("5.1", "ping in 2 fragments: fails (1002)", false, [](Peer& p) {
      send(p, {frame(kPing, "fragment1", false), frame(kContinuation, "fragment2")}, Chops::none);
      STEP(p.closed({1002}));
      return Outcome{};
    });
    add("5.2", "pong in 2 fragments: fails (1002)", false, [](Peer& p) {
      send(p, {frame(kPong, "fragment1", false), frame(kContinuation, "fragment2")}, Chops::none);
      STEP(p.closed({1002}));
      return Outcome{};
    });
    int n = 3;
    for (const bool ping : {false, true}) {
      for (const Chops chops : {Chops::none, Chops::frames, Chops::octets}) {
        add("5." + std::to_string(n++),
            std::string("text in 2 fragments") +
                (ping ? ", a ping between: pong, then echo" : ": echo") + chops_name(chops),
            false, [ping, chops](Peer& p) {
              std::vector<std::string> frames{frame(kText, "fragment1", false)};
              if (ping) frames.push_back(frame(kPing, "ping payload"));
              frames.push_back(frame(kContinuation, "fragment2"));
              send(p, frames, chops);
              if (ping) STEP(p.pong("ping payload"));
              STEP(p.echo("fragment1fragment2"));
              STEP(p.clean_close());
              return Outcome{};
            });
      }
    }
    for (const bool fin : {true, false}) {
      for (const Chops chops : {Chops::none, Chops::frames, Chops::octets}) {
        add("5." + std::to_string(n++),
            std::string("continuation (FIN = ") + (fin ? "1" : "0") +
                ") of nothing, then text: fails (1002)" + chops_name(chops),
            false, [fin, chops](Peer& p) {
              send(p,
                   {frame(kContinuation, "non-continuation payload", fin),
                    frame(kText, "Hello, world!")},
                   chops);
              STEP(p.closed({1002}));
              return Outcome{};
            });
      }
    }
    add("5.15", "text in 2 fragments, a continuation of nothing, text: echo, fails (1002)", false,
        [](Peer& p) {
          send(p,
               {frame(kText, "fragment1", false), frame(kContinuation, "fragment2"),
                frame(kContinuation, "fragment3", false), frame(kText, "fragment4")},
               Chops::none);
          STEP(p.echo("fragment1fragment2"));
          STEP(p.closed({1002}));
          return Outcome{};
        });
    for (const bool fin : {false, true}) {
      add(fin ? "5.17" : "5.16",
          std::string("twice: continuation (FIN = ") + (fin ? "1" : "0") +
              ") of nothing, text in 2 fragments: fails (1002)",
          false, [fin](Peer& p) {
            std::vector<std::string> frames;
            for (int i = 0; i < 2; ++i) {
              frames.push_back(frame(kContinuation, "fragment1", fin));
              frames.push_back(frame(kText, "fragment2", false));
              frames.push_back(frame(kContinuation, "fragment3"));
            }
            send(p, frames, Chops::none);
            STEP(p.closed({1002}));
            return Outcome{};
          });
    }
    add("5.18", "text in 2 fragments, both with the text opcode: fails (1002)", false, [](Peer& p) {
      send(p, {frame(kText, "fragment1", false), frame(kText, "fragment2")}, Chops::none);
      STEP(p.closed({1002}));
      return Outcome{};
    });
    for (const Chops chops : {Chops::none, Chops::frames}) {
      add(chops == Chops::none ? "5.19" : "5.20",
          std::string("text in 5 fragments, pings between: the first pong before the rest is sent, "
                      "then the echo") +
              chops_name(chops),
          false, [chops](Peer& p) {
            send(p,
                 {frame(kText, "fragment1", false), frame(kContinuation, "fragment2", false),
                  frame(kPing, "pongme 1!")},
                 chops);
            STEP(p.pong("pongme 1!"));
            send(
                p,
                {frame(kContinuation, "fragment3", false), frame(kContinuation, "fragment4", false),
                 frame(kPing, "pongme 2!"), frame(kContinuation, "fragment5")},
                chops);
            STEP(p.pong("pongme 2!"));
            STEP(p.echo("fragment1fragment2fragment3fragment4fragment5"));
            STEP(p.clean_close());
            return Outcome{};
          });
    }
  }

  // A text message of the given parts, each a frame, answered and closed cleanly.
  void text_in_fragments(std::string id, std::string what, std::vector<std::string> parts) {
    add(std::move(id), std::move(what), true, [parts](Peer& p) {
      const std::vector<std::string> carried = p.carry(parts);
      std::vector<std::string> frames;
      for (std::size_t i = 0; i < carried.size(); ++i) {
        frames.push_back(
            frame(i == 0 ? kText : kContinuation, carried[i], i + 1 == carried.size()));
      }
      send(p, frames, Chops::none);
      std::string whole;
      for (const std::string& part : parts) whole += part;
      STEP(p.echo(whole));
      STEP(p.clean_close());
      return Outcome{};
    });
  }

  static std::vector<std::string> octets(std::string_view text) {
    std::vector<std::string> out;
    for (const char c : text) out.emplace_back(1, c);
    return out;
  }

  // 6.1-6.4: empty fragments, valid text cut anywhere, invalid text refused at the fragment, or
  // the piece of a frame, that proves it.
  void utf8() {
    text_in_fragments("6.1.1", "empty text: echo", {""});
    text_in_fragments("6.1.2", "text in 3 empty fragments: echo", {"", "", ""});
    text_in_fragments("6.1.3", "text in 3 fragments, only the middle one not empty: echo",
                      {"", "middle frame payload", ""});
    text_in_fragments("6.2.1", "valid UTF-8 in one frame: echo", {kHello});
    text_in_fragments("6.2.2", "valid UTF-8 in 2 fragments cut at a code point: echo",
                      {kHello.substr(0, 12), kHello.substr(12)});
    text_in_fragments("6.2.3", "valid UTF-8 in fragments of 1 octet: echo", octets(kHello));
    text_in_fragments("6.2.4", "κόσμε in fragments of 1 octet: echo", octets(kKosme));
    const std::string bad = kKosme + "\xed\xa0\x80" + "edited";
    add("6.3.1", "invalid UTF-8 in one frame: fails (1007)", true, [bad](Peer& p) {
      p.ws().send_bytes(frame(kText, p.carry(bad)));
      STEP(p.closed({1007}));
      return Outcome{};
    });
    add("6.3.2", "invalid UTF-8 in fragments of 1 octet: fails (1007)", true, [bad](Peer& p) {
      const std::vector<std::string> carried = p.carry(octets(bad));
      std::vector<std::string> frames;
      for (std::size_t i = 0; i < carried.size(); ++i) {
        frames.push_back(
            frame(i == 0 ? kText : kContinuation, carried[i], i + 1 == carried.size()));
      }
      send(p, frames, Chops::none);
      STEP(p.closed({1007}));
      return Outcome{};
    });
    // Autobahn's parts: valid, then the part that makes the text invalid, then the rest.
    const std::vector<std::string> whole_char = {kKosme, "\xf4\x90\x80\x80", "edited"};
    const std::vector<std::string> to_the_octet = {kKosme + "\xf4", "\x90",
                                                   "\x80\x80"
                                                   "edited"};
    fail_fast("6.4.1", "invalid UTF-8 in 3 fragments: fails at the 2nd, before the 3rd is sent",
              whole_char, false);
    fail_fast("6.4.2", "as 6.4.1, the 2nd fragment ending on the octet that makes it invalid",
              to_the_octet, false);
    fail_fast("6.4.3", "invalid UTF-8 in one frame sent in 3 chops: fails at the 2nd chop",
              whole_char, true);
    fail_fast("6.4.4", "as 6.4.3, the 2nd chop ending on the octet that makes it invalid",
              to_the_octet, true);
  }

  // 6.4.x: parts[0] is accepted (a ping after it is answered, or, inside one frame, nothing comes
  // back for a while); parts[1] fails the connection at once (ok), or only once parts[2] ends the
  // message (non-strict).
  void fail_fast(std::string id, std::string what, std::vector<std::string> parts, bool one_frame) {
    add(std::move(id), std::move(what), true, [parts, one_frame](Peer& p) {
      const std::vector<std::string> carried = p.carry(parts);
      std::vector<std::string> pieces;
      if (one_frame) {
        const std::string f = frame(kText, carried[0] + carried[1] + carried[2]);
        const std::size_t header =
            f.size() - carried[0].size() - carried[1].size() - carried[2].size();
        pieces = {f.substr(0, header + carried[0].size()),
                  f.substr(header + carried[0].size(), carried[1].size()),
                  f.substr(header + carried[0].size() + carried[1].size())};
        p.ws().send_bytes(pieces[0]);
        STEP(p.quiet(250ms));
      } else {
        pieces = {frame(kText, carried[0], false), frame(kContinuation, carried[1], false),
                  frame(kContinuation, carried[2])};
        p.ws().send_bytes(pieces[0] + frame(kPing, "after part 1"));
        STEP(p.pong("after part 1"));
      }
      p.ws().send_bytes(pieces[1]);
      if (const std::optional<int> code = p.ws().close_code()) {
        if (*code != 1007) return Outcome{Verdict::failed, "closed with " + std::to_string(*code)};
        return Outcome{};
      }
      p.ws().send_bytes(pieces[2]);
      STEP(p.closed({1007}));
      return Outcome{Verdict::non_strict, "refused when the message ended"};
    });
  }

  // 6.5-6.23: Markus Kuhn's UTF-8 decoder capability and stress test, as Autobahn numbers it:
  // each sequence alone in one frame, echoed when valid, failing the connection (1007) when not.
  void utf8_sequences() {
    using Sequences = std::vector<std::pair<bool, std::string>>;
    std::vector<std::pair<std::string, Sequences>> groups;
    groups.push_back({"valid sequences",
                      {{true, "hello\x24world"},
                       {true, "hello\xc2\xa2world"},
                       {true, "hello\xe2\x82\xacworld"},
                       {true, "hello\xf0\xa4\xad\xa2world"},
                       {true, kKosme}}});
    Sequences prefixes;
    for (std::size_t n = 1; n <= kKosme.size(); ++n) {
      prefixes.push_back({n == 2 || n == 5 || n == 7 || n == 9 || n == 11, kKosme.substr(0, n)});
    }
    groups.push_back({"every prefix of κόσμε", prefixes});
    groups.push_back({"the first sequence of each length",
                      {{true, std::string(1, '\0')},
                       {true, "\xc2\x80"},
                       {true, "\xe0\xa0\x80"},
                       {true, "\xf0\x90\x80\x80"}}});
    groups.push_back({"the first sequences of 5 and 6 octets",
                      {{false, "\xf8\x88\x80\x80\x80"}, {false, "\xfc\x84\x80\x80\x80\x80"}}});
    groups.push_back(
        {"the last sequence of each length",
         {{true, "\x7f"}, {true, "\xdf\xbf"}, {true, "\xef\xbf\xbf"}, {true, "\xf4\x8f\xbf\xbf"}}});
    groups.push_back({"the last sequences of 4, 5 and 6 octets",
                      {{false, "\xf7\xbf\xbf\xbf"},
                       {false, "\xfb\xbf\xbf\xbf\xbf"},
                       {false, "\xfd\xbf\xbf\xbf\xbf\xbf"}}});
    groups.push_back({"other boundaries",
                      {{true, "\xed\x9f\xbf"},
                       {true, "\xee\x80\x80"},
                       {true, "\xef\xbf\xbd"},
                       {true, "\xf4\x8f\xbf\xbf"},
                       {false, "\xf4\x90\x80\x80"}}});
    std::string continuations;
    for (int c = 0x80; c < 0xbf; ++c) continuations += static_cast<char>(c);
    groups.push_back({"unexpected continuation octets",
                      {{false, "\x80"},
                       {false, "\xbf"},
                       {false, "\x80\xbf"},
                       {false, "\x80\xbf\x80"},
                       {false, "\x80\xbf\x80\xbf"},
                       {false, "\x80\xbf\x80\xbf\x80"},
                       {false, "\x80\xbf\x80\xbf\x80\xbf"},
                       {false, continuations}}});
    Sequences lonely;
    for (const auto& [from, to] :
         {std::pair{0xc0, 0xdf}, {0xe0, 0xef}, {0xf0, 0xf7}, {0xf8, 0xfb}, {0xfc, 0xfd}}) {
      std::string s;
      for (int c = from; c < to; ++c) s += {static_cast<char>(c), ' '};
      lonely.push_back({false, s});
    }
    groups.push_back({"lonely lead octets", lonely});
    const std::vector<std::string> cut = {
        "\xc0", "\xe0\x80", "\xf0\x80\x80", "\xf8\x80\x80\x80", "\xfc\x80\x80\x80\x80",
        "\xdf", "\xef\xbf", "\xf7\xbf\xbf", "\xfb\xbf\xbf\xbf", "\xfd\xbf\xbf\xbf\xbf"};
    Sequences missing;
    std::string all_cut;
    for (const std::string& s : cut) {
      missing.push_back({false, s});
      all_cut += s;
    }
    groups.push_back({"the last continuation octet missing", missing});
    groups.push_back({"incomplete sequences one after another", {{false, all_cut}}});
    groups.push_back(
        {"impossible octets", {{false, "\xfe"}, {false, "\xff"}, {false, "\xfe\xfe\xff\xff"}}});
    groups.push_back({"overlong forms of an ASCII character",
                      {{false, "\xc0\xaf"},
                       {false, "\xe0\x80\xaf"},
                       {false, "\xf0\x80\x80\xaf"},
                       {false, "\xf8\x80\x80\x80\xaf"},
                       {false, "\xfc\x80\x80\x80\x80\xaf"}}});
    groups.push_back({"the longest overlong forms",
                      {{false, "\xc1\xbf"},
                       {false, "\xe0\x9f\xbf"},
                       {false, "\xf0\x8f\xbf\xbf"},
                       {false, "\xf8\x87\xbf\xbf\xbf"},
                       {false, "\xfc\x83\xbf\xbf\xbf\xbf"}}});
    groups.push_back({"overlong forms of NUL",
                      {{false, "\xc0\x80"},
                       {false, "\xe0\x80\x80"},
                       {false, "\xf0\x80\x80\x80"},
                       {false, "\xf8\x80\x80\x80\x80"},
                       {false, "\xfc\x80\x80\x80\x80\x80"}}});
    groups.push_back({"single UTF-16 surrogates",
                      {{false, "\xed\xa0\x80"},
                       {false, "\xed\xad\xbf"},
                       {false, "\xed\xae\x80"},
                       {false, "\xed\xaf\xbf"},
                       {false, "\xed\xb0\x80"},
                       {false, "\xed\xbe\x80"},
                       {false, "\xed\xbf\xbf"}}});
    Sequences pairs;
    for (const char* high : {"\xed\xa0\x80", "\xed\xad\xbf", "\xed\xae\x80", "\xed\xaf\xbf"}) {
      for (const char* low : {"\xed\xb0\x80", "\xed\xbf\xbf"})
        pairs.push_back({false, std::string(high) + low});
    }
    groups.push_back({"paired UTF-16 surrogates", pairs});
    Sequences nonchars{{true, "\xef\xbf\xbe"}, {true, "\xef\xbf\xbf"}};
    for (const char lead : {'\xf0', '\xf1', '\xf2', '\xf3', '\xf4'}) {
      for (const char second : {'\x8f', '\x9f', '\xaf', '\xbf'}) {
        if (lead == '\xf4' && second != '\x8f') continue;  // past U+10FFFF
        if (lead == '\xf0' && second == '\x8f') continue;  // overlong
        for (const char last : {'\xbe', '\xbf'})
          nonchars.push_back({true, std::string{lead, second, '\xbf', last}});
      }
    }
    groups.push_back({"noncharacters (valid UTF-8)", nonchars});
    Sequences specials;
    for (char c = '\xb9'; c != '\xc0'; ++c) specials.push_back({true, std::string("\xef\xbf") + c});
    groups.push_back({"specials, the replacement character among them", specials});

    int group = 5;
    for (const auto& [name, sequences] : groups) {
      int n = 1;
      for (const auto& [valid, text] : sequences) {
        const std::string id = "6." + std::to_string(group) + "." + std::to_string(n++);
        add(id, name + (valid ? ": echo" : ": fails (1007)"), true, [valid, text](Peer& p) {
          p.ws().send_bytes(frame(kText, p.carry(text)));
          if (!valid) {
            STEP(p.closed({1007}));
          } else {
            STEP(p.echo(text));
            STEP(p.clean_close());
          }
          return Outcome{};
        });
      }
      ++group;
    }
  }

  // 7: the close handshake; nothing is answered after a close; close codes and reasons checked.
  void closing() {
    add("7.1.1", "text, then close: echo, clean close", true, [](Peer& p) {
      p.ws().send_bytes(frame(kText, p.carry("Hello World!")));
      STEP(p.echo("Hello World!"));
      STEP(p.clean_close());
      return Outcome{};
    });
    const std::tuple<const char*, const char*, std::string> after_close[] = {
        {"7.1.2", "two closes: the second ignored", frame(kClose, close_code(1000))},
        {"7.1.3", "close, then ping: no pong", frame(kPing, "")},
        {"7.1.4", "close, then text: no echo", frame(kText, "Hello World!")}};
    for (const auto& [id, what, then] : after_close) {
      add(id, what, true, [then](Peer& p) {
        p.ws().send_bytes(frame(kClose, close_code(1000)) + then);
        STEP(p.closed({1000}));
        return Outcome{};
      });
    }
    add("7.1.5", "fragment, close, fragment: clean close, no echo", true, [](Peer& p) {
      const std::vector<std::string> parts =
          p.carry(std::vector<std::string>{"fragment1", "fragment2"});
      p.ws().send_bytes(frame(kText, parts[0], false) + frame(kClose, close_code(1000)) +
                        frame(kContinuation, parts[1]));
      STEP(p.closed({1000}));
      return Outcome{};
    });
    add("7.1.6",
        "a message at the limit, text, close, ping: what the close overtakes is "
        "implementation-defined",
        true, [limit = limit_](Peer& p) {
          const std::string big(p.target() == Target::echo ? limit : 3000, '*');
          p.ws().send_bytes(frame(kText, p.carry(big)) + frame(kText, p.carry("Hello World!")) +
                            frame(kClose, close_code(1000)) + frame(kPing, ""));
          STEP(p.echo(big));
          STEP(p.echo("Hello World!"));
          STEP(p.closed({1000}));
          return Outcome{Verdict::informational,
                         "both messages answered before the close, no pong after it"};
        });
    const std::tuple<const char*, const char*, std::string, std::vector<int>> payloads[] = {
        {"7.3.1", "an empty close: answered with an empty close", "", {1005, 1000}},
        {"7.3.2", "a close of 1 octet: fails (1002)", "a", {1002}},
        {"7.3.3", "close 1000: echoed", close_code(1000), {1000}},
        {"7.3.4", "close 1000 with a reason: echoed", close_code(1000) + "Hello World!", {1000}},
        {"7.3.5",
         "close 1000 with a reason of 123 octets: echoed",
         close_code(1000) + std::string(123, '*'),
         {1000}},
        {"7.3.6",
         "close with a reason of 124 octets (126 in all): fails (1002)",
         close_code(1000) + std::string(124, '*'),
         {1002}},
        {"7.5.1",
         "close with a reason that is not UTF-8: fails (1007)",
         close_code(1000) + kKosme +
             "\xed\xa0\x80"
             "edited",
         {1007, 1002}}};
    for (const auto& [id, what, payload, answers] : payloads) {
      add(id, what, true, [payload, answers](Peer& p) {
        STEP(p.close_with(payload, answers));
        return Outcome{};
      });
    }
    int n = 1;
    for (const int code :
         {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999}) {
      add("7.7." + std::to_string(n++), "close " + std::to_string(code) + ": echoed", true,
          [code](Peer& p) {
            STEP(p.clean_close(code, {code, 1000}));
            return Outcome{};
          });
    }
    n = 1;
    for (const int code : {0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999}) {
      add("7.9." + std::to_string(n++),
          "close " + std::to_string(code) + " (not a code a peer may send): fails (1002)", true,
          [code](Peer& p) {
            STEP(p.close_with(close_code(code), {1002}));
            return Outcome{};
          });
    }
    n = 1;
    for (const int code : {5000, 65535}) {
      add("7.13." + std::to_string(n++),
          "close " + std::to_string(code) + ": undefined by the spec", true, [code](Peer& p) {
            p.ws().send(kClose, close_code(code));
            const std::optional<int> answer = p.ws().close_code();
            return Outcome{Verdict::informational,
                           answer ? "answered " + std::to_string(*answer) : "no close answered"};
          });
    }
  }

  // 9: large messages, many fragments, many chops, many round trips — at our sizes: Autobahn's
  // largest text (16 MiB) is the limit, its 4 MiB fragmented and 1 MiB chopped ones too.
  void limits() {
    const std::size_t sixteenths[] = {limit_ / 256, limit_ / 64, limit_ / 16,
                                      limit_ / 4,   limit_ / 2,  limit_};
    for (int i = 0; i < 6; ++i) {
      const std::size_t size = sixteenths[i];
      add("9.1." + std::to_string(i + 1), "text of " + std::to_string(size) + " bytes: echo", false,
          [size](Peer& p) {
            const std::string text(size, '*');
            p.ws().send_bytes(frame(kText, text));
            STEP(p.echo(text));
            STEP(p.clean_close());
            return Outcome{};
          });
      add("9.2." + std::to_string(i + 1),
          "binary of " + std::to_string(size) + " bytes: refused (1003)", false,
          refuse_binary(size, size, 0));
    }
    for (int i = 0; i < 9; ++i) {
      const std::size_t fragment =
          std::max<std::size_t>(1, (limit_ >> 16) << (2 * i));  // 64 B ... 4 MiB of 4 MiB
      const std::string n = std::to_string(i + 1);
      add("9.3." + n,
          "text of " + std::to_string(limit_) + " bytes in fragments of " +
              std::to_string(fragment) + ": echo",
          false, [limit = limit_, fragment](Peer& p) {
            const std::string text(limit, '*');
            std::string bytes;
            for (std::size_t at = 0; at < text.size(); at += fragment) {
              bytes += frame(at == 0 ? kText : kContinuation, text.substr(at, fragment),
                             at + fragment >= text.size());
            }
            p.ws().send_bytes(bytes);
            STEP(p.echo(text));
            STEP(p.clean_close());
            return Outcome{};
          });
      add("9.4." + n, "binary in fragments of " + std::to_string(fragment) + ": refused (1003)",
          false, refuse_binary(limit_, fragment, 0));
    }
    const std::size_t chops[] = {64, 128, 256, 512, 1024, 2048};
    for (int i = 0; i < 6; ++i) {
      const std::size_t chop = chops[i];
      add("9.5." + std::to_string(i + 1),
          "text of " + std::to_string(limit_) + " bytes in chops of " + std::to_string(chop) +
              ": echo",
          false, [limit = limit_, chop](Peer& p) {
            const std::string text(limit, '*');
            p.ws().send_chopped(frame(kText, text), chop);
            STEP(p.echo(text));
            STEP(p.clean_close());
            return Outcome{};
          });
      add("9.6." + std::to_string(i + 1),
          "binary in chops of " + std::to_string(chop) + ": refused (1003)", false,
          refuse_binary(limit_, limit_, chop));
    }
    const std::size_t sizes[] = {0, 16, 64, 256, 1024, 4096};
    for (int i = 0; i < 6; ++i) {
      const std::size_t size = sizes[i];
      add("9.7." + std::to_string(i + 1),
          "1000 text messages of " + std::to_string(size) +
              " bytes, each after the last one's echo",
          false, [size](Peer& p) {
            const std::string text(size, '*');
            const auto start = std::chrono::steady_clock::now();
            for (int k = 0; k < 1000; ++k) {
              p.ws().send(kText, text);
              STEP(p.echo(text));
            }
            const auto took = std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::steady_clock::now() - start);
            STEP(p.clean_close());
            return Outcome{Verdict::ok, std::to_string(took.count() / 1000) + " µs a round trip"};
          });
      add("9.8." + std::to_string(i + 1),
          "binary messages of " + std::to_string(size) + " bytes: refused (1003)", false,
          refuse_binary(size, size, 0));
    }
  }

  // Sends a binary message of size bytes in fragments of fragment, in chops of chop (0: at once).
  static std::function<Outcome(Peer&)> refuse_binary(std::size_t size, std::size_t fragment,
                                                     std::size_t chop) {
    return [size, fragment, chop](Peer& p) {
      std::string bytes;
      const std::string payload(size, '\xfe');
      for (std::size_t at = 0; at < size || at == 0; at += fragment) {
        bytes += frame(at == 0 ? kBinary : kContinuation, payload.substr(at, fragment),
                       at + fragment >= size);
        if (size == 0) break;
      }
      chop ? p.ws().send_chopped(bytes, chop) : p.ws().send_bytes(bytes);
      STEP(p.closed_by_server({1003}));
      return Outcome{Verdict::refused};
    };
  }

  std::size_t limit_;
  std::vector<Case> cases_;
};

#undef STEP

}  // namespace

std::vector<Case> autobahn_cases(std::size_t limit) { return Cases(limit).all(); }

int section_of(const std::string& id) { return std::stoi(id.substr(0, id.find('.'))); }

}  // namespace tilerace::conformance
