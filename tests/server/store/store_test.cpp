// Every Store test runs against both backends: SQLite in a temporary file, and PostgreSQL in a
// fresh database of the test process's own server (tests/pg_cluster.hpp).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <limits>
#include <set>
#include <thread>

#include "server/base/secrets.hpp"
#include "tests/eventually.hpp"
#include "tests/server/store/rated.hpp"
#include "tests/server/store/store_fixture.hpp"

namespace tilerace::server {
namespace {

// The schema before bot accounts (version 22).
#define TILERACE_BEFORE_BOTS "DROP TABLE bot_tokens; ALTER TABLE players DROP COLUMN bot; "
// The schema before Glicko-2 (version 21): one Elo rating per player, in players.
#define TILERACE_BEFORE_GLICKO                                                             \
  TILERACE_BEFORE_BOTS                                                                     \
  "DROP TABLE ratings; ALTER TABLE rating_history DROP COLUMN variant; ALTER TABLE "       \
  "rating_history DROP COLUMN rd; ALTER TABLE players ADD COLUMN rating INTEGER NOT NULL " \
  "DEFAULT 1500; CREATE INDEX players_by_rating ON players (rating DESC, id) WHERE races > 0; "
constexpr const char* kBeforeGlicko = TILERACE_BEFORE_GLICKO;
// The schema before operators had accounts (version 18), before guest names were released
// (19), and before solo journals kept move times and tournament creations were counted (20).
#define TILERACE_BEFORE_OPERATORS                                                            \
  TILERACE_BEFORE_GLICKO                                                                     \
  "ALTER TABLE active_games DROP COLUMN times; ALTER TABLE active_moves DROP COLUMN times; " \
  "DROP TABLE tournament_creations; "                                                        \
  "ALTER TABLE players DROP COLUMN released_name; "                                          \
  "DROP TABLE operator_sessions; DROP TABLE operators; ALTER TABLE audit_log DROP COLUMN "   \
  "actor_role; ALTER TABLE audit_log DROP COLUMN target_name; ALTER TABLE audit_log DROP "   \
  "COLUMN address; "
constexpr const char* kBeforeOperators = TILERACE_BEFORE_OPERATORS;
// The schema before names were compared by what they look like (version 17; the link codes'
// hashing, 18, may run again).
constexpr const char* kBeforeLookKeys = TILERACE_BEFORE_OPERATORS
    "DROP TABLE name_keys_version; DROP INDEX players_by_look_key; "
    "ALTER TABLE players DROP COLUMN look_key; ";

using namespace testing;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

TEST_P(StoreTest, PlayersRoundTripAndSurviveReopening) {
  add("p1", "ann");
  // The same id again: ignored.
  EXPECT_FALSE(store_->add_player({"p1", "someone else", "someone else", 0}, std::nullopt));
  auto p = store_->find_player("p1");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->name, "ann");
  EXPECT_EQ(classic4_rating(*p), 1500);
  EXPECT_EQ(p->registered_at, 0);
  EXPECT_EQ(store_->session_player("hash-p1", 2000), (SessionOwner{"p1", "ann"}));
  EXPECT_FALSE(store_->find_player("p2").has_value());
  store_.reset();
  store_ = open();
  EXPECT_EQ(store_->find_player("p1")->name, "ann");
}

TEST_P(StoreTest, TheDatabaseHasTheCurrentSchema) {
  if (postgres()) {
    EXPECT_EQ(query("SELECT version FROM tilerace_schema"), PgStore::kSchemaVersion);
    EXPECT_EQ(query("SELECT COUNT(*) FROM tilerace_schema"), 1);
    store_ = open("node-b");  // opening again migrates nothing
    EXPECT_EQ(query("SELECT version FROM tilerace_schema"), PgStore::kSchemaVersion);
    return;
  }
  SQLite::Database db(file().string());
  EXPECT_EQ(db.execAndGet("PRAGMA journal_mode").getString(), "wal");
  EXPECT_EQ(db.execAndGet("PRAGMA user_version").getInt(), SqliteStore::kSchemaVersion);
  EXPECT_EQ(db.execAndGet("PRAGMA integrity_check").getString(), "ok");
}

TEST_P(StoreTest, ADatabaseFromANewerVersionIsRefused) {
  store_.reset();
  execute(postgres() ? "UPDATE tilerace_schema SET version = 99" : "PRAGMA user_version = 99");
  try {
    open();
    FAIL() << "opened a database from a newer version";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("newer tilerace"), std::string::npos) << e.what();
  }
}

TEST_P(StoreTest, GamesAreRecordedOnceAndFoundById) {
  add("p1", "ann");
  const GameRecord g = game("g1", "p1", 1200, 128, 150, 5000);
  store_->record_game(g);
  GameRecord again = g;
  again.score = 1;  // a retry must not change or duplicate anything
  store_->record_game(again);
  const auto found = store_->find_game("g1");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->score, 1200);
  EXPECT_EQ(found->moves, "LURD");
  EXPECT_EQ(found->config.seed, 42u);
  EXPECT_EQ(query("SELECT COUNT(*) FROM games"), 1);
}

// The moderation sweep's queue: ranked games of people (not the computer's) without signals,
// newest first; a game leaves it with its signals, and a database from before the queue had
// its own index has it filled in.
TEST_P(StoreTest, GamesToAnalyseAreRankedGamesOfPeopleWithoutSignalsNewestFirst) {
  add("a", "ann");
  store_->record_game(game("old", "a", 100, 8, 10, 1000));
  store_->record_game(game("new", "a", 100, 8, 10, 3000));
  GameRecord practice = game("practice", "a", 100, 8, 10, 4000);
  practice.ranked = false;
  store_->record_game(practice);
  store_->record_game(game("computer", "bot-hard", 100, 8, 10, 5000));
  const auto queue = [this](int limit) {
    std::vector<std::string> ids;
    for (const GameRecord& g : store_->unanalysed_games(limit)) ids.push_back(g.id);
    return ids;
  };
  EXPECT_EQ(queue(10), (std::vector<std::string>{"new", "old"}));
  EXPECT_EQ(queue(1), std::vector<std::string>{"new"});
  store_->save_signals({.game_id = "new", .player_id = "a"}, 6000);
  EXPECT_EQ(queue(10), std::vector<std::string>{"old"});
  store_.reset();
  execute(std::string(kBeforeLookKeys) +
          "DROP INDEX games_to_analyse; DROP INDEX daily_attempts_by_player; "
          "ALTER TABLE games DROP COLUMN to_analyse; " +
          std::string(postgres() ? "UPDATE tilerace_schema SET version = 13"
                                 : "PRAGMA user_version = 13"));
  store_ = open();
  EXPECT_EQ(queue(10), std::vector<std::string>{"old"});
}

TEST_P(StoreTest, ScoreBoardKeepsEachPlayersBestAndRanksTiesTogether) {
  for (const char* id : {"a", "b", "c", "d"}) add(id, std::string("name-") + id);
  store_->record_game(game("a1", "a", 500, 64, 90, 1));
  store_->record_game(game("a2", "a", 900, 128, 120, 2));  // a's best
  store_->record_game(game("a3", "a", 700, 128, 100, 3));
  store_->record_game(game("b1", "b", 900, 128, 110, 4));  // beats a: fewer moves
  store_->record_game(game("c1", "c", 900, 128, 120, 5));  // ties a exactly
  store_->record_game(game("d1", "d", 100, 16, 40, 6));
  GameRecord practice = game("d2", "d", 99999, 4096, 10, 7);
  practice.ranked = false;  // explicit seed or undo: not on the board
  store_->record_game(practice);
  GameRecord race = game("d3", "d", 99999, 4096, 10, 8);
  race.room = "ABCDEF";  // race games are not solo results
  store_->record_game(race);

  const Leaderboard top = board("d", 3);
  ASSERT_EQ(top.entries.size(), 3u);
  EXPECT_EQ(top.entries[0].player_id, "b");
  EXPECT_EQ(top.entries[0].rank, 1);
  EXPECT_EQ(top.entries[1].player_id, "a");  // a and c tie; the earlier result lists first
  EXPECT_EQ(top.entries[1].rank, 2);
  EXPECT_EQ(top.entries[1].game_id, "a2");
  EXPECT_EQ(top.entries[2].player_id, "c");
  EXPECT_EQ(top.entries[2].rank, 2);
  EXPECT_EQ(top.entries[2].name, "name-c");
  ASSERT_TRUE(top.me.has_value());  // outside the top 3, still with its rank
  EXPECT_EQ(top.me->player_id, "d");
  EXPECT_EQ(top.me->rank, 4);
  EXPECT_EQ(top.me->score, 100);
  EXPECT_EQ(board("c").me->rank, 2);
  EXPECT_FALSE(board("nobody").me.has_value());
  EXPECT_TRUE(store_->leaderboard({engine::Mode::classic, 5, BoardKind::score, 10, "", {}})
                  .entries.empty());
}

TEST_P(StoreTest, FifteenBoardRanksFewestMovesAndOnlySolvedGames) {
  add("a", "ann");
  add("b", "bob");
  store_->record_game(game("a1", "a", 80, 0, 80, 1, engine::Mode::fifteen));
  store_->record_game(game("b1", "b", 60, 0, 60, 2, engine::Mode::fifteen));
  GameRecord gave_up = game("a2", "a", 5, 0, 5, 3, engine::Mode::fifteen);
  gave_up.state = engine::GameState::resigned;
  store_->record_game(gave_up);
  const Leaderboard top = board("a", 10, engine::Mode::fifteen);
  ASSERT_EQ(top.entries.size(), 2u);
  EXPECT_EQ(top.entries[0].player_id, "b");
  EXPECT_EQ(top.entries[1].moves, 80);
  EXPECT_EQ(top.me->rank, 2);
}

// Unix milliseconds of a UTC date and a time of day: the clock the results carry.
std::int64_t utc(std::chrono::year_month_day date, std::chrono::milliseconds time = {}) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::sys_days(date).time_since_epoch() + time)
      .count();
}
constexpr std::chrono::milliseconds kLastMs = 23h + 59min + 59s + 999ms;

TEST_P(StoreTest, AResultIsOnTheBoardsOfItsUtcDayAndIsoWeek) {
  using namespace std::chrono;
  for (const char* id : {"a", "b", "c"}) add(id, std::string("name-") + id);
  // Sunday 2026-11-22 23:59:59 and the Monday after at 00:00:00, a new day and a new week.
  store_->record_game(game("a1", "a", 500, 64, 90, utc(2026y / 11 / 22, 23h + 59min + 59s)));
  store_->record_game(game("c1", "c", 200, 16, 50, utc(2026y / 11 / 22, kLastMs)));
  store_->record_game(game("b1", "b", 300, 32, 70, utc(2026y / 11 / 23)));
  store_->record_game(game("a2", "a", 100, 8, 30, utc(2026y / 11 / 23)));
  store_->record_game(game("c2", "c", 400, 32, 80, utc(2026y / 11 / 29, kLastMs)));  // Sunday

  EXPECT_EQ(listing(board_of("2026-11-22")), "a#1:500 c#2:200");
  EXPECT_EQ(listing(board_of("2026-11-23")), "b#1:300 a#2:100");
  EXPECT_EQ(listing(board_of("2026-11-24")), "");
  EXPECT_EQ(listing(board_of("2026-W47")), "a#1:500 c#2:200");
  EXPECT_EQ(listing(board_of("2026-W48")), "c#1:400 b#2:300 a#3:100");
  EXPECT_EQ(listing(board_of("all-time")), "a#1:500 c#2:400 b#3:300");
  EXPECT_EQ(listing(board()), listing(board_of("all-time")));
  // `me` and its rank are per board: a leads the day before and is last in the week after.
  EXPECT_EQ(board_of("2026-11-23", "a").me->rank, 2);
  EXPECT_EQ(board_of("2026-11-23", "a").me->game_id, "a2");
  EXPECT_EQ(board_of("2026-W48", "a").me->rank, 3);
  EXPECT_EQ(board_of("2026-W47", "a").me->rank, 1);
  EXPECT_FALSE(board_of("2026-11-22", "b").me.has_value());
  // A better result later in the same week replaces the player's week entry only there.
  store_->record_game(game("b2", "b", 450, 32, 75, utc(2026y / 11 / 24)));
  EXPECT_EQ(listing(board_of("2026-W48")), "b#1:450 c#2:400 a#3:100");
  EXPECT_EQ(board_of("2026-W48", "a").me->rank, 3);
  EXPECT_EQ(listing(board_of("2026-11-23")), "b#1:300 a#2:100");

  // Past periods stay readable, ranks included, after the store is opened again.
  store_.reset();
  store_ = open();
  EXPECT_EQ(listing(board_of("2026-11-22")), "a#1:500 c#2:200");
  EXPECT_EQ(board_of("2026-11-22", "c").me->rank, 2);
  EXPECT_EQ(board_of("2026-W48", "c").me->rank, 2);
}

TEST_P(StoreTest, IsoWeeksOneAndFiftyThreeHoldTheDaysAroundNewYear) {
  using namespace std::chrono;
  add("a", "ann");
  add("b", "bob");
  store_->record_game(game("a1", "a", 100, 8, 10, utc(2021y / 1 / 3, kLastMs)));  // 2020-W53
  store_->record_game(game("b1", "b", 200, 16, 20, utc(2021y / 1 / 4)));          // 2021-W01
  store_->record_game(game("a2", "a", 300, 32, 30, utc(2027y / 1 / 1, 12h)));     // 2026-W53
  store_->record_game(game("b2", "b", 400, 32, 40, utc(2026y / 12 / 28)));        // 2026-W53
  EXPECT_EQ(listing(board_of("2020-W53")), "a#1:100");
  EXPECT_EQ(listing(board_of("2021-W01")), "b#1:200");
  EXPECT_EQ(listing(board_of("2026-W53")), "b#1:400 a#2:300");
  EXPECT_EQ(listing(board_of("2027-W01")), "");
  EXPECT_EQ(listing(board_of("2027-01-01")), "a#1:300");
  EXPECT_EQ(board_of("2026-W53", "a").me->rank, 2);
}

// Back to the schema before accounts (and friends, the daily challenge and moderation): each
// player's one token hash in players, no sessions, no name keys.
std::string before_accounts(bool postgres) {
  return std::string(kBeforeLookKeys) +
         std::string(
             "DROP INDEX games_to_analyse; ALTER TABLE games DROP COLUMN to_analyse; "
             "DROP TABLE tournaments; ALTER TABLE active_races DROP COLUMN tournament; "
             "DROP TABLE game_signals; DROP TABLE audit_log; DROP TABLE reports; DROP TABLE "
             "hidden_games; DROP TABLE bans; "
             "ALTER TABLE players DROP COLUMN banned; ") +
         (postgres ? "DROP FUNCTION audit_log_append_only(); " : "") +
         "DROP TABLE daily_attempts; DROP TABLE server_secrets; DROP TABLE friend_links; "
         "ALTER TABLE games DROP COLUMN daily; ALTER TABLE games DROP COLUMN times; "
         "ALTER TABLE active_games DROP COLUMN daily; "
         "DROP TABLE sessions; DROP TABLE old_names; DROP TABLE link_codes; "
         "DROP INDEX players_by_name_key; ALTER TABLE players DROP COLUMN name_key; "
         "ALTER TABLE players DROP COLUMN password_hash; "
         "ALTER TABLE players DROP COLUMN registered_at; ALTER TABLE players DROP COLUMN "
         "renamed_at; "
         "ALTER TABLE players ADD COLUMN token_hash TEXT NOT NULL DEFAULT ''; "
         "UPDATE players SET token_hash = 'hash-' || id;";
}

TEST_P(StoreTest, SessionsPasswordsLinkCodesAndRenames) {
  add("p1", "ann");  // with session hash-p1
  add("p2", "bob");
  // More devices; each session is seen when used.
  store_->add_session({"phone", "p1", 2000, 2000, "Phone"});
  EXPECT_EQ(store_->session_player("phone", 2500), (SessionOwner{"p1", "ann"}));
  std::vector<SessionRecord> sessions = store_->sessions("p1");
  ASSERT_EQ(sessions.size(), 2u);
  EXPECT_EQ(sessions[0].token_hash, "hash-p1");
  EXPECT_EQ(sessions[1].label, "Phone");
  EXPECT_EQ(sessions[1].last_seen, 2500);
  EXPECT_EQ(store_->end_other_sessions("p1", "phone"), std::vector<std::string>{"hash-p1"});
  EXPECT_FALSE(store_->session_player("hash-p1", 3000));
  store_->end_session("phone");
  EXPECT_TRUE(store_->sessions("p1").empty());
  EXPECT_EQ(store_->session_player("hash-p2", 3000)->player_id, "p2");  // others untouched
  // A password: a guest has none until they register.
  EXPECT_EQ(store_->credentials("ann")->password_hash, "");
  EXPECT_FALSE(store_->credentials("nobody"));
  store_->set_password("p1", "$argon2id$x", 4000);
  EXPECT_EQ(store_->credentials("ann")->password_hash, "$argon2id$x");
  EXPECT_EQ(store_->find_player("p1")->registered_at, 4000);
  // Link codes: once, and only before they expire (the clock is the caller's).
  store_->add_link_code("CODE2345", "p1", 10000);
  store_->add_link_code("LATE2345", "p2", 10000);
  EXPECT_EQ(store_->take_link_code("CODE2345", 9999), "p1");
  EXPECT_FALSE(store_->take_link_code("CODE2345", 9999));   // spent
  EXPECT_FALSE(store_->take_link_code("LATE2345", 10000));  // expired
  EXPECT_FALSE(store_->take_link_code("LATE2345", 5000));   // and spent by the late try
  // Renames: the new name's key must be free; the old name is kept.
  EXPECT_FALSE(store_->rename("p1", "Bob", protocol::name_key("Bob"), 5000));
  EXPECT_TRUE(store_->rename("p1", "Annie", protocol::name_key("Annie"), 5000));
  EXPECT_TRUE(store_->rename("p2", "ann", protocol::name_key("ann"), 6000));  // freed
  EXPECT_EQ(store_->find_player("p1")->name, "Annie");
  EXPECT_EQ(store_->find_player("p1")->renamed_at, 5000);
  EXPECT_EQ(store_->credentials("annie")->player_id, "p1");
  EXPECT_EQ(store_->credentials("ann")->player_id, "p2");
}

TEST_P(StoreTest, LinkCodesAreKeptAsHashesAndThoseFromBeforeStillSignIn) {
  add("p1", "ann");
  store_->add_link_code("CODE2345", "p1", 10000);
  EXPECT_EQ(query("SELECT COUNT(*) FROM link_codes WHERE code = 'CODE2345'"), 0);
  EXPECT_EQ(
      query("SELECT COUNT(*) FROM link_codes WHERE code = '" + server::code_hash("CODE2345") + "'"),
      1);
  EXPECT_EQ(store_->take_link_code("CODE2345", 9000), "p1");
  // A code written in clear before hashes (schema 17) is hashed by the upgrade, and works.
  store_.reset();
  execute(
      std::string(kBeforeOperators) +
      "INSERT INTO link_codes (code, player_id, expires_at) VALUES ('OLDC2345', 'p1', 10000); " +
      (postgres() ? "UPDATE tilerace_schema SET version = 17" : "PRAGMA user_version = 17"));
  store_ = open();
  EXPECT_EQ(query("SELECT COUNT(*) FROM link_codes WHERE code = 'OLDC2345'"), 0);
  EXPECT_EQ(store_->take_link_code("OLDC2345", 9000), "p1");
}

// A guest name comes free once nobody used it for the window — by the clock given, as the
// server's is — and never an account's; the guest is told once, under a generated name.
TEST_P(StoreTest, AGuestNameUnusedForTheWindowGoesToWhoeverAsksAndItsGuestIsToldOnce) {
  constexpr std::int64_t kDay = 86'400'000;
  add("p1", "zoe");  // created, and their session last seen, at 1000
  add("p2", "max");
  store_->set_password("p2", "$argon2id$x", 1000);
  // Used since: a sign-in at day 10, a game ended at day 20.
  ASSERT_TRUE(store_->session_player("hash-p1", 10 * kDay));
  store_->record_game(game("g1", "p1", 100, 8, 10, 20 * kDay));
  EXPECT_FALSE(store_->release_guest_name("zoe", 20 * kDay, 50 * kDay)) << "used at day 20";
  EXPECT_FALSE(store_->release_guest_name("max", 60 * kDay, 60 * kDay)) << "an account's";
  EXPECT_FALSE(store_->release_guest_name("nobody", 60 * kDay, 60 * kDay));
  // Unused after day 20: at day 50 with a 30-day window the name comes free, by its look too.
  EXPECT_TRUE(store_->release_guest_name("ZОE", 20 * kDay + 1, 50 * kDay));  // Cyrillic О
  const std::optional<PlayerRecord> zoe = store_->find_player("p1");
  ASSERT_TRUE(zoe);
  EXPECT_EQ(zoe->name, "guest-p1");
  EXPECT_EQ(store_->old_names("p1"),
            (std::vector<std::pair<std::string, std::int64_t>>{{"zoe", 50 * kDay}}));
  EXPECT_TRUE(
      store_->add_player({"p3", "zoe", protocol::name_key("zoe"), 50 * kDay}, std::nullopt));
  // Told at the next sign-in, once.
  EXPECT_EQ(store_->session_player("hash-p1", 51 * kDay)->released_name, "zoe");
  EXPECT_EQ(store_->session_player("hash-p1", 51 * kDay)->name, "guest-p1");
  EXPECT_EQ(store_->session_player("hash-p1", 52 * kDay)->released_name, "");
  // The generated name is longer when another player has the short one.
  add("0123456789abcdef", "amy");
  add("p5", "guest-01234567");
  EXPECT_TRUE(store_->release_guest_name("amy", 2000, 60 * kDay));
  EXPECT_EQ(store_->find_player("0123456789abcdef")->name, "guest-0123456789ab");
}

TEST_P(StoreTest, OperatorsTheirSessionsAndTheirCodesStepsHoldForEveryNode) {
  const OperatorRecord ada{.id = "o1",
                           .name = "Ada",
                           .role = "moderator",
                           .password_hash = "$argon2id$x",
                           .created_at = 1000};
  EXPECT_TRUE(store_->add_operator(ada, "ada"));
  EXPECT_FALSE(store_->add_operator({.id = "o2", .name = "ADA", .role = "owner"}, "ada"));
  ASSERT_TRUE(store_->operator_named("ada"));
  EXPECT_EQ(store_->operator_named("ada")->role, "moderator");
  EXPECT_FALSE(store_->operator_named("nobody"));
  // A code's step is used once; the enrolment's confirming code uses its step too.
  EXPECT_FALSE(store_->confirm_totp("o1", 10)) << "nothing pending";
  store_->set_totp_pending("o1", "SECRET");
  EXPECT_TRUE(store_->confirm_totp("o1", 10));
  EXPECT_EQ(store_->operator_named("ada")->totp_secret, "SECRET");
  EXPECT_EQ(store_->operator_named("ada")->totp_pending, "");
  EXPECT_FALSE(store_->use_totp_step("o1", 10));
  EXPECT_TRUE(store_->use_totp_step("o1", 11));
  EXPECT_FALSE(store_->use_totp_step("o1", 9)) << "an older code after a newer one";
  // Sessions: found until they expire or end; ending them all is the sign-out everywhere.
  store_->add_operator_session({"h1", "o1", 2000, 5000, "10.0.0.1"});
  store_->add_operator_session({"h2", "o1", 3000, 9000, "10.0.0.2"});
  EXPECT_EQ(store_->operator_of_session("h1", 4999)->name, "Ada");
  EXPECT_FALSE(store_->operator_of_session("h1", 5000));
  const std::vector<OperatorSummary> listed = store_->operators(4000);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].sessions, 2);
  EXPECT_EQ(listed[0].last_sign_in, 3000);
  EXPECT_TRUE(listed[0].totp);
  store_->end_operator_session("h2");
  EXPECT_FALSE(store_->operator_of_session("h2", 4000));
  EXPECT_EQ(store_->end_operator_sessions("o1"), 1);
  EXPECT_FALSE(store_->operator_of_session("h1", 4000));
  EXPECT_TRUE(store_->remove_operator("o1"));
  EXPECT_FALSE(store_->remove_operator("o1"));
  EXPECT_TRUE(store_->operators(4000).empty());
  // The audit log keeps who, in what role, on whom by name, and from where.
  store_->audit({.at = 6000,
                 .actor = "Ada",
                 .action = "ban",
                 .target = "p1",
                 .reason = "spam",
                 .actor_role = "moderator",
                 .target_name = "ann",
                 .address = "10.0.0.1"});
  const AuditEntry entry = store_->audit_log(std::numeric_limits<std::int64_t>::max(), 1).at(0);
  EXPECT_EQ(entry.actor_role, "moderator");
  EXPECT_EQ(entry.target_name, "ann");
  EXPECT_EQ(entry.address, "10.0.0.1");
}

TEST_P(StoreTest, EachConnectionTakesTheNextEpochAndOneReadChecksThemAll) {
  add("p1", "ann");  // with session hash-p1
  add("p2", "bob");
  EXPECT_EQ(store_->take_connection("p1"), 1);
  EXPECT_EQ(store_->take_connection("p1"), 2);
  EXPECT_EQ(store_->take_connection("p2"), 1);
  store_->add_session({"phone", "p1", 2000, 2000, "Phone"});
  store_->end_session("hash-p1");
  store_->rename("p2", "robert", "robert", 3000);
  const ConnectionStates states =
      store_->check_connections({"p1", "p2", "nobody"}, {"hash-p1", "phone", "hash-p2", "x"});
  ASSERT_EQ(states.players.size(), 2u);
  EXPECT_EQ(states.players.at("p1").epoch, 2);
  EXPECT_EQ(states.players.at("p1").name, "ann");
  EXPECT_EQ(states.players.at("p2").epoch, 1);
  EXPECT_EQ(states.players.at("p2").name, "robert");
  EXPECT_EQ(states.sessions, (std::set<std::string, std::less<>>{"phone", "hash-p2"}));
  // A player who never connected reads epoch 0; asking for nobody reads nothing.
  add("p3", "cat");
  EXPECT_EQ(store_->check_connections({"p3"}, {}).players.at("p3").epoch, 0);
  const ConnectionStates none = store_->check_connections({}, {});
  EXPECT_TRUE(none.players.empty());
  EXPECT_TRUE(none.sessions.empty());
}

TEST_P(StoreTest, UpgradingGivesEachPlayerASessionAndEveryNameItsOwnKey) {
  add("p1", "ann");
  add("p2", "bob");
  add("p3", "cid");
  store_.reset();
  // Before accounts names could repeat and break today's rules; tokens lived in players.
  execute(before_accounts(postgres()));
  execute(
      "UPDATE players SET name = 'ann', created_at = 2000 WHERE id = 'p2';"
      "UPDATE players SET name = 'ANN', created_at = 3000 WHERE id = 'p3';");
  add_bare("p4", "\u202Eevil", 4000);  // a bidi override: no longer a name
  execute(postgres() ? "UPDATE tilerace_schema SET version = 5" : "PRAGMA user_version = 7");
  store_ = open();
  EXPECT_EQ(store_->find_player("p1")->name, "ann");  // the oldest keeps the name
  EXPECT_EQ(store_->find_player("p2")->name, "ann-2");
  EXPECT_EQ(store_->find_player("p3")->name, "ANN-3");
  EXPECT_EQ(store_->find_player("p4")->name, "player-p4");
  EXPECT_EQ(store_->credentials("ann-3")->player_id, "p3");
  for (const char* id : {"p1", "p2", "p3"}) {
    EXPECT_EQ(store_->session_player(std::string("hash-") + id, 5000)->player_id, id);
  }
  // A later guest cannot take a name in any case or width.
  EXPECT_FALSE(store_->add_player({"p5", "Ann", protocol::name_key("Ann"), 6000}, std::nullopt));
}

// Keys made under other rules (another ICU, or before skeletons) are made again at open: a
// look-alike that came later is renamed as an upgrade renames (suffix, or player-<id> for a
// name the rules refuse now), the first holder keeps the name, everyone else is untouched.
TEST_P(StoreTest, OpeningUnderNewNameRulesKeysEveryNameAgain) {
  add("p1", "alice");
  add("p2", "ace");
  add("p5", "bob");
  store_.reset();
  execute(
      "INSERT INTO players (id, name, name_key, wins, losses, created_at) VALUES "
      "('p3', '\u0430\u0441\u0435', 'old-p3', 0, 0, 2000), "  // асе, all Cyrillic
      "('p4', '\u0430lice', 'old-p4', 0, 0, 3000); "          // а (Cyrillic) + lice
      "UPDATE name_keys_version SET version = 'icu 0, keys 1'");
  store_ = open();
  EXPECT_EQ(store_->find_player("p1")->name, "alice");
  EXPECT_EQ(store_->find_player("p2")->name, "ace");
  EXPECT_EQ(store_->find_player("p5")->name, "bob");
  EXPECT_EQ(store_->find_player("p3")->name, "\u0430\u0441\u0435-2");  // a look-alike of ace
  EXPECT_EQ(store_->find_player("p4")->name, "player-p4");             // mixes scripts: no name now
  EXPECT_EQ(store_->credentials(protocol::name_key("alice"))->player_id, "p1");
  // Nobody takes a look-alike of a name any more.
  EXPECT_FALSE(
      store_->add_player({"p6", "aIice", protocol::name_key("aIice"), 6000}, std::nullopt));
  EXPECT_FALSE(store_->add_player(
      {"p7", "\u0430\u0441\u0435", protocol::name_key("\u0430\u0441\u0435"), 6000}, std::nullopt));
  EXPECT_TRUE(
      store_->add_player({"p8", "alicia", protocol::name_key("alicia"), 6000}, std::nullopt));
  // Under the same rules, opening again changes nothing.
  store_.reset();
  store_ = open();
  EXPECT_EQ(store_->find_player("p3")->name, "\u0430\u0441\u0435-2");
  EXPECT_EQ(store_->find_player("p8")->name, "alicia");
}

TEST_P(StoreTest, UpgradingFillsInTheDaysAndWeeksOfResultsAlreadyRecorded) {
  using namespace std::chrono;
  add("a", "ann");
  add("b", "bob");
  store_->record_game(game("a1", "a", 500, 64, 90, utc(2026y / 11 / 22, 10h)));
  store_->record_game(game("a2", "a", 600, 64, 95, utc(2026y / 11 / 22, 11h)));  // a's best
  store_->record_game(game("b1", "b", 300, 32, 70, utc(2026y / 11 / 23)));
  store_->record_game(game("b2", "b", 300, 32, 60, utc(2026y / 11 / 23, 1h)));  // fewer moves
  store_->record_game(game("a3", "a", 50, 8, 10, utc(2026y / 11 / 24)));
  const std::string w48 = listing(board_of("2026-W48"));
  ASSERT_EQ(w48, "b#1:300 a#2:50");
  store_.reset();
  // Back to the schema before periods (and achievements): one best_results table of all-time
  // bests.
  execute(
      "CREATE TABLE best_results AS SELECT player_id, mode, size, score, max_tile, move_count, "
      "game_id, ended_at FROM period_results WHERE period = 'all-time'; DROP TABLE "
      "period_results; DROP TABLE achievements; ALTER TABLE players DROP COLUMN streak;" +
      before_accounts(postgres()));
  execute(postgres() ? "UPDATE tilerace_schema SET version = 3" : "PRAGMA user_version = 5");
  store_ = open();
  EXPECT_EQ(listing(board_of("all-time")), "a#1:600 b#2:300");
  EXPECT_EQ(listing(board_of("2026-11-22")), "a#1:600");
  EXPECT_EQ(board_of("2026-11-22", "a").me->game_id, "a2");
  EXPECT_EQ(board_of("2026-11-23", "b").me->game_id, "b2");
  EXPECT_EQ(listing(board_of("2026-W48")), w48);
  EXPECT_EQ(board_of("2026-W48", "a").me->rank, 2);
  EXPECT_EQ(listing(board_of("2026-W47")), "a#1:600");
}

TEST_P(StoreTest, RacesUpdateRatingsOnceAndFeedTheRatingBoard) {
  add("a", "ann");
  add("b", "bob");
  add("c", "cid");  // never raced: not on the rating board
  RaceRecord race;
  race.id = "r1";
  race.room = "ABCDEF";
  race.reason = "target";
  race.winner = "a";
  race.result = "{}";
  race.games = {game("ga", "a", 300, 32, 40, 9), game("gb", "b", 200, 16, 40, 9)};
  race.games[0].room = race.games[1].room = "ABCDEF";
  race.ratings = {rated("a", 1500, 1516, true, false), rated("b", 1500, 1484, false, true)};
  race.ended_at = 9;
  store_->record_race(race);
  store_->record_race(race);  // idempotent
  EXPECT_EQ(classic4_rating(*store_->find_player("a")), 1516);
  EXPECT_EQ(store_->find_player("a")->wins, 1);
  EXPECT_EQ(store_->find_player("b")->losses, 1);
  EXPECT_TRUE(store_->find_game("gb").has_value());
  const Leaderboard ratings =
      store_->leaderboard({engine::Mode::classic, 4, BoardKind::rating, 10, "b", {}});
  ASSERT_EQ(ratings.entries.size(), 2u);
  EXPECT_EQ(ratings.entries[0].player_id, "a");
  EXPECT_EQ(ratings.entries[0].rating, 1516);
  EXPECT_EQ(ratings.me->rank, 2);
  EXPECT_EQ(ratings.me->losses, 1);
  EXPECT_TRUE(board().entries.empty());  // race games never reach the score board
}

// Each variant's board holds its own ratings; a provisional one (deviation above 75) is listed
// only on request, and a listed one drops off once its deviation has grown past 75 idle.
TEST_P(StoreTest, RatingBoardsAreByVariantAndListOnlySettledRatingsUnlessAsked) {
  constexpr std::int64_t kDay = 86'400'000;
  const std::int64_t t0 = 1'800'000'000'000;
  for (const char* id : {"a", "b", "c", "d"}) add(id, std::string("p-") + id);
  auto race = [&](std::string id, std::vector<RatingUpdate> ratings) {
    store_->record_race(rated_race(std::move(id), std::move(ratings), t0));
  };
  race("r1", {rated("a", 1500, 1600, true, false), rated("b", 1500, 1450, false, true)});
  RatingUpdate fresh = rated("c", 1500, 1700, true, false);
  fresh.after.rd = 200;  // provisional
  RatingUpdate small = rated("d", 1500, 1800, true, false);
  small.variant = protocol::Variant::classic_3;
  race("r2", {fresh, small});
  auto board_at = [&](std::int64_t now, bool provisional, protocol::Variant v,
                      std::string me = "c") {
    LeaderboardQuery q{.kind = BoardKind::rating, .player_id = std::move(me)};
    q.variant = v;
    q.provisional = provisional;
    q.now = now;
    return store_->leaderboard(q);
  };
  auto names = [](const Leaderboard& b) {
    std::string s;
    for (const BoardEntry& e : b.entries)
      s += fmt::format("{}#{}:{} ", e.player_id, e.rank, e.rating);
    return s;
  };
  const Leaderboard settled = board_at(t0, false, protocol::Variant::classic_4);
  EXPECT_EQ(names(settled), "a#1:1600 b#2:1450 ");
  ASSERT_TRUE(settled.me.has_value()) << "c's own entry, though not listed";
  EXPECT_FALSE(settled.me->listed);
  EXPECT_TRUE(settled.me->provisional);
  EXPECT_EQ(settled.me->rank, 1) << "where c would stand";
  const Leaderboard everyone = board_at(t0, true, protocol::Variant::classic_4);
  EXPECT_EQ(names(everyone), "c#1:1700 a#2:1600 b#3:1450 ");
  EXPECT_TRUE(everyone.me->listed);
  EXPECT_EQ(everyone.entries[0].rd, 200);
  EXPECT_EQ(everyone.entries[1].rd, 60);
  EXPECT_EQ(names(board_at(t0, false, protocol::Variant::classic_3, "d")), "d#1:1800 ");
  // Idle, the deviation grows: 60 → above 75 after (75² − 60²) / 18.1² ≈ 6.2 days.
  EXPECT_EQ(names(board_at(t0 + 6 * kDay, false, protocol::Variant::classic_4)),
            "a#1:1600 b#2:1450 ");
  const Leaderboard later = board_at(t0 + 7 * kDay, false, protocol::Variant::classic_4, "a");
  EXPECT_EQ(names(later), "");
  ASSERT_TRUE(later.me.has_value());
  EXPECT_GT(later.me->rd, 75);
  EXPECT_FALSE(later.me->listed);
  EXPECT_EQ(store_->find_player("d")->ratings[protocol::index_of(protocol::Variant::classic_4)],
            VariantRating{})
      << "a 3×3 race leaves the 4×4 rating alone";
}

// The upgrade to Glicko-2: an Elo rating becomes the classic 4×4 rating, with the deviation
// its rated races earned (glicko2::settled_rd), as of the last rated race; its history stays,
// as classic 4×4 points of unknown deviation.
TEST_P(StoreTest, UpgradingMakesEachEloRatingTheClassic4x4Glicko2Rating) {
  const std::int64_t t0 = 1'800'000'000'000;
  for (const char* id : {"vet", "new", "none"}) add(id, std::string("p-") + id);
  store_.reset();
  execute(std::string(kBeforeGlicko) +
          "UPDATE players SET rating = 1720, races = 60, wins = 50, losses = 10 WHERE id = 'vet'; "
          "UPDATE players SET rating = 1484, races = 1, wins = 0, losses = 1 WHERE id = 'new'; "
          "INSERT INTO rating_history VALUES ('vet', 'r1', 1800000000000, 1716); "
          "INSERT INTO rating_history VALUES ('vet', 'r2', 1800000001000, 1720); " +
          std::string(postgres() ? "UPDATE tilerace_schema SET version = 21"
                                 : "PRAGMA user_version = 21"));
  store_ = open();
  const auto classic4 = [&](const char* id) {
    return store_->find_player(id)->ratings[protocol::index_of(protocol::Variant::classic_4)];
  };
  const VariantRating vet = classic4("vet");
  EXPECT_DOUBLE_EQ(vet.rating.rating, 1720);
  EXPECT_NEAR(vet.rating.rd, glicko2::settled_rd(60), 1e-9);
  EXPECT_DOUBLE_EQ(vet.rating.volatility, glicko2::kStart.volatility);
  EXPECT_EQ(vet.at, t0 + 1000) << "as of the last rated race";
  EXPECT_NEAR(classic4("new").rating.rd, glicko2::settled_rd(1), 1e-9);
  EXPECT_EQ(classic4("none"), VariantRating{}) << "never raced: nothing to carry over";
  for (const char* id : {"vet", "new"}) {
    for (const protocol::Variant v : protocol::kVariants) {
      if (v == protocol::Variant::classic_4) continue;
      EXPECT_EQ(store_->find_player(id)->ratings[protocol::index_of(v)], VariantRating{});
    }
  }
  LeaderboardQuery q{.kind = BoardKind::rating, .player_id = "new"};
  q.now = t0 + 2000;
  const Leaderboard board = store_->leaderboard(q);
  ASSERT_EQ(board.entries.size(), 1u) << "the settled one; the newcomer is provisional";
  EXPECT_EQ(board.entries[0].player_id, "vet");
  EXPECT_EQ(board.entries[0].wins, 50);
  ASSERT_TRUE(board.me.has_value());
  EXPECT_FALSE(board.me->listed);
  EXPECT_EQ(board.me->rating, 1484);
  const std::optional<Profile> p = store_->profile("vet");
  ASSERT_EQ(p->history.size(), 2u);
  EXPECT_EQ(p->history[1].rating, 1720);
  EXPECT_EQ(p->history[1].rd, 0) << "unknown before Glicko-2";
  EXPECT_EQ(p->history[1].variant, protocol::Variant::classic_4);
}

TEST_P(StoreTest, AProfileHasGamesBestsTheRatingHistoryAndRecentRaces) {
  add("a", "ann");
  add("b", "bob");
  EXPECT_FALSE(store_->profile("nobody").has_value());
  store_->record_game(game("s1", "a", 500, 64, 50, 1));
  for (int n = 1; n <= 3; ++n) {
    RaceRecord race;
    race.id = "r" + std::to_string(n);
    race.room = "ROOM2" + std::to_string(n);
    race.reason = "forfeit";
    race.winner = "a";
    race.result = "{}";
    race.ended_at = 100 * n;
    race.games = {game("ga" + std::to_string(n), "a", 10, 4, 3, 100 * n),
                  game("gb" + std::to_string(n), "b", 5, 4, 2, 100 * n)};
    race.games[0].room = race.games[1].room = race.room;
    race.ratings = {rated("a", 1500 + 15 * (n - 1), 1500 + 15 * n, true, false),
                    rated("b", 1500 - 15 * (n - 1), 1500 - 15 * n, false, true)};
    store_->record_race(race);
    store_->record_race(race);  // once
  }
  const std::optional<Profile> p = store_->profile("a");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->player.name, "ann");
  EXPECT_EQ(p->player.wins, 3);
  EXPECT_EQ(p->games, 4);
  ASSERT_EQ(p->bests.size(), 1u);  // race games are not bests
  EXPECT_EQ(p->bests[0].id, "s1");
  EXPECT_EQ(p->bests[0].score, 500);
  ASSERT_EQ(p->history.size(), 3u);
  for (int n = 1; n <= 3; ++n) {
    const RatingPoint& h = p->history[static_cast<std::size_t>(n - 1)];
    EXPECT_EQ(h.variant, protocol::Variant::classic_4);
    EXPECT_EQ(h.at, 100 * n);
    EXPECT_EQ(h.rating, 1500 + 15 * n);
    EXPECT_EQ(h.rd, 60);
  }
  ASSERT_EQ(p->standings.size(), 1u);
  EXPECT_EQ(p->standings[0].races, 3);
  EXPECT_EQ(p->standings[0].wins, 3);
  EXPECT_EQ(classic4_rating(p->player), 1545);
  ASSERT_EQ(p->races.size(), 3u);
  EXPECT_EQ(p->races[0].game.id, "ga3");  // newest first
  EXPECT_EQ(p->races[0].game.room, "ROOM23");
  EXPECT_EQ(p->races[2].game.id, "ga1");
  for (const RaceGameRecord& r : p->races) EXPECT_EQ(r.outcome, "won") << r.game.id;
  const std::optional<Profile> q = store_->profile("b");
  ASSERT_EQ(q->races.size(), 3u);
  EXPECT_EQ(q->races[1].outcome, "lost");
  // A rematch in the same room, drawn: each game is matched to its own race.
  RaceRecord draw;
  draw.id = "r4";
  draw.room = "ROOM23";
  draw.reason = "all_over";
  draw.result = "{}";
  draw.ended_at = 400;
  draw.games = {game("ga4", "a", 10, 4, 3, 350)};
  draw.games[0].room = draw.room;
  store_->record_race(draw);
  const std::optional<Profile> after = store_->profile("a");
  ASSERT_EQ(after->races.size(), 4u);
  EXPECT_EQ(after->races[0].game.id, "ga4");
  EXPECT_EQ(after->races[0].outcome, "draw");
  EXPECT_EQ(after->races[1].game.id, "ga3");
  EXPECT_EQ(after->races[1].outcome, "won");
}

// The achievement ids of grants, in order.
std::vector<std::string> ids_of(const std::vector<Grant>& grants) {
  std::vector<std::string> ids;
  for (const Grant& g : grants) ids.push_back(g.achievement);
  return ids;
}
using Ids = std::vector<std::string>;

TEST_P(StoreTest, GamesGrantEachAchievementOnceAndOnlyWhenRecorded) {
  add("a", "ann");
  add("b", "bob");
  GameRecord won = game("a1", "a", 20000, 2048, 900, 10);
  EXPECT_EQ(ids_of(store_->record_game(won)), (Ids{"tile_2048", "no_regrets"}));
  EXPECT_EQ(ids_of(store_->record_game(won)), Ids{});  // the same game again: nothing
  GameRecord again = game("a2", "a", 30000, 2048, 1000, 11);
  EXPECT_EQ(ids_of(store_->record_game(again)), Ids{});  // held already
  EXPECT_EQ(ids_of(store_->record_game(game("a3", "a", 60000, 4096, 2000, 12))), Ids{"tile_4096"});
  GameRecord wide = game("a4", "a", 25000, 2048, 1200, 13);
  wide.config.size = 5;
  EXPECT_EQ(ids_of(store_->record_game(wide)), Ids{"wide_open"});
  GameRecord small_target = game("b1", "b", 20, 8, 5, 14);
  small_target.config.size = 5;
  small_target.config.target = 8;  // reaching 8 wins nothing here
  EXPECT_EQ(ids_of(store_->record_game(small_target)), Ids{});
  GameRecord undone = game("b2", "b", 20000, 2048, 900, 15);
  undone.ranked = false;  // an undo (or a chosen seed): not "without undo"
  EXPECT_EQ(ids_of(store_->record_game(undone)), Ids{"tile_2048"});
  EXPECT_EQ(ids_of(store_->record_game(game("b3", "b", 250, 0, 250, 16, engine::Mode::fifteen))),
            Ids{});
  const std::vector<Grant> quick =
      store_->record_game(game("b4", "b", 150, 0, 150, 17, engine::Mode::fifteen));
  ASSERT_EQ(ids_of(quick), Ids{"quick_fingers"});
  EXPECT_EQ(quick[0].player_id, "b");
  EXPECT_EQ(quick[0].game_id, "b4");
  EXPECT_EQ(quick[0].at, 17);

  // Kept: after reopening, nothing is granted twice and the profile lists them in order.
  store_.reset();
  store_ = open();
  EXPECT_EQ(ids_of(store_->record_game(game("a5", "a", 70000, 4096, 2100, 18))), Ids{});
  const auto profile = store_->profile("a");
  EXPECT_EQ(ids_of(profile->achievements),
            (Ids{"tile_2048", "no_regrets", "tile_4096", "wide_open"}));
  EXPECT_EQ(profile->achievements[0].game_id, "a1");
  EXPECT_EQ(profile->achievements[3].at, 13);
}

TEST_P(StoreTest, RaceWinsInARowAndBeatingTheHardComputerGrantTheirAchievements) {
  add("c", "cid");
  add("d", "dee");
  int n = 0;
  // A rated race between c and d that winner wins.
  const auto race = [&](const std::string& winner) {
    const std::string loser = winner == "c" ? "d" : "c";
    RaceRecord r;
    r.id = fmt::format("r{}", ++n);
    r.room = "ABCDEF";
    r.reason = "forfeit";
    r.winner = winner;
    r.result = "{}";
    r.ended_at = 100 + n;
    r.games = {game(fmt::format("g{}{}", n, winner), winner, 300, 32, 40, r.ended_at),
               game(fmt::format("g{}{}", n, loser), loser, 200, 16, 40, r.ended_at)};
    r.games[0].room = r.games[1].room = r.room;
    r.ratings = {rated(winner, 1500, 1510, true, false), rated(loser, 1500, 1490, false, true)};
    return store_->record_race(r);
  };
  const std::vector<Grant> first = race("c");
  ASSERT_EQ(ids_of(first), Ids{"first_race_win"});
  EXPECT_EQ(first[0].player_id, "c");
  EXPECT_EQ(first[0].game_id, "g1c");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(ids_of(race("c")), Ids{});       // c: four in a row
  EXPECT_EQ(ids_of(race("d")), Ids{"first_race_win"});                   // c's run ends
  for (int i = 0; i < 4; ++i) EXPECT_EQ(ids_of(race("c")), Ids{}) << i;  // four again
  // The run survives reopening the store.
  store_.reset();
  store_ = open();
  const std::vector<Grant> fifth = race("c");
  ASSERT_EQ(ids_of(fifth), Ids{"on_a_roll"});
  EXPECT_EQ(fifth[0].game_id, fmt::format("g{}c", n));
  EXPECT_EQ(ids_of(race("c")), Ids{});

  // The computer: only a win against hard counts.
  const auto against = [&](engine::BotStrength s, bool won) {
    RaceRecord r;
    r.id = fmt::format("r{}", ++n);
    r.room = "BOTBOT";
    r.reason = "target";
    r.result = "{}";
    r.ended_at = 100 + n;
    r.games = {game(fmt::format("g{}d", n), "d", 300, 32, 40, r.ended_at),
               game(fmt::format("g{}bot", n), "bot-hard", 40000, 4096, 2000, r.ended_at)};
    r.games[0].room = r.games[1].room = r.room;
    r.against_bots = {{"d", s, won, !won, false}};
    return store_->record_race(r);
  };
  EXPECT_EQ(ids_of(against(engine::BotStrength::easy, true)), Ids{});
  EXPECT_EQ(ids_of(against(engine::BotStrength::hard, false)), Ids{});
  EXPECT_EQ(ids_of(against(engine::BotStrength::hard, true)), Ids{"machine_breaker"});
  EXPECT_EQ(ids_of(against(engine::BotStrength::hard, true)), Ids{});
  EXPECT_EQ(ids_of(store_->profile("d")->achievements), (Ids{"first_race_win", "machine_breaker"}));
  EXPECT_EQ(query("SELECT COUNT(*) FROM achievements WHERE player_id = 'bot-hard'"), 0);
}

TEST_P(StoreTest, RacesAgainstTheComputerAddUpPerStrengthOnceEach) {
  add("a", "ann");
  EXPECT_TRUE(store_->bot_records("a").empty());
  const auto race = [](std::string id, engine::BotStrength s, bool won, bool lost) {
    RaceRecord r;
    r.id = std::move(id);
    r.room = "ABCDEF";
    r.reason = "target";
    r.result = "{}";
    r.ended_at = 9;
    r.against_bots = {{"a", s, won, lost, !won && !lost}};
    return r;
  };
  store_->record_race(race("r1", engine::BotStrength::hard, false, true));
  store_->record_race(race("r1", engine::BotStrength::hard, false, true));  // idempotent
  store_->record_race(race("r2", engine::BotStrength::hard, true, false));
  store_->record_race(race("r3", engine::BotStrength::easy, false, false));
  const std::vector<BotRecord> want{{engine::BotStrength::easy, 0, 0, 1},
                                    {engine::BotStrength::hard, 1, 1, 0}};
  EXPECT_EQ(store_->bot_records("a"), want);
  EXPECT_EQ(store_->find_player("a")->wins, 0);  // no rating, no win count
}

TEST_P(StoreTest, TheJournalKeepsTheLatestMovesUntilTheGameIsRecorded) {
  add("p", "ann");
  ActiveGameRecord a{"p", "g1", {engine::Mode::classic, 4, 2048, 7}, false, "LU", 100};
  store_->journal({a});
  a.moves = "LUR";
  store_->journal({a});
  auto found = store_->find_active("p");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->moves, "LUR");
  EXPECT_EQ(found->config.seed, 7u);
  store_->record_game(game("g1", "p", 8, 8, 3, 200));
  EXPECT_FALSE(store_->find_active("p").has_value());
  store_->journal({a});  // a late journal write of a finished game is ignored
  EXPECT_FALSE(store_->find_active("p").has_value());
}

// Each piece carries its moves' times; a piece without them makes the times unknown.
TEST_P(StoreTest, TheJournalKeepsASoloGamesMoveTimesPieceByPiece) {
  add("p", "ann");
  const engine::GameConfig config{engine::Mode::classic, 4, 2048, 7};
  store_->journal({{"p", "g1", config, false, "LU", 100, 0, {30, 80}}});
  store_->journal({{"p", "g1", config, false, "RD", 100, 2, {120, 400}}});
  EXPECT_EQ(store_->find_active("p")->times, (std::vector<std::int32_t>{30, 80, 120, 400}));
  store_->journal({{"p", "g1", config, false, "L", 100, 4, {}}});  // from before times were kept
  const auto found = store_->find_active("p");
  EXPECT_EQ(found->moves, "LURDL");
  EXPECT_TRUE(found->times.empty()) << "not one per move: not known";
}

// --tournaments-per-player-hour: counted per player over the hour before, in the store (so on
// every node sharing it).
TEST_P(StoreTest, TournamentCreationsAreCountedPerPlayerOverAnHour) {
  constexpr std::int64_t kHour = 3'600'000;
  EXPECT_TRUE(store_->note_tournament_creation("a", 1'000, 2, kHour));
  EXPECT_TRUE(store_->note_tournament_creation("a", 2'000, 2, kHour));
  EXPECT_FALSE(store_->note_tournament_creation("a", 3'000, 2, kHour)) << "a third in the hour";
  EXPECT_TRUE(store_->note_tournament_creation("b", 3'000, 2, kHour)) << "per player";
  EXPECT_FALSE(store_->note_tournament_creation("a", 999 + kHour, 2, kHour));
  EXPECT_TRUE(store_->note_tournament_creation("a", 1'000 + kHour, 2, kHour))
      << "the first aged out";
  EXPECT_FALSE(store_->note_tournament_creation("a", 1'500 + kHour, 2, kHour));
}

TEST_P(StoreTest, TheJournalTakesASoloGameInPieces) {
  add("p", "ann");
  ActiveGameRecord a{"p", "g1", {engine::Mode::classic, 4, 2048, 7}, false, "LU", 100, 0};
  store_->journal({a});
  store_->journal({{"p", "g1", a.config, false, "RD", 100, 2}});
  store_->journal({{"p", "g1", a.config, false, "Z", 100, 4}});
  EXPECT_EQ(store_->find_active("p")->moves, "LURDZ");
  // A piece of another game, or one that does not continue the entry, is not joined.
  store_->journal({{"p", "g0", a.config, false, "LL", 100, 5}});
  store_->journal({{"p", "g1", a.config, false, "UU", 100, 9}});
  EXPECT_EQ(store_->find_active("p")->moves, "LURDZ");
  // A whole entry replaces the pieces: a new game starts from nothing.
  store_->journal({{"p", "g2", a.config, false, "D", 300, 0}});
  auto found = store_->find_active("p");
  EXPECT_EQ(found->game_id, "g2");
  EXPECT_EQ(found->moves, "D");
  store_->journal({{"p", "g2", a.config, false, "L", 300, 1}});
  EXPECT_EQ(store_->find_active("p")->moves, "DL");
  // Recording the game drops the entry and its pieces; a late whole entry of it changes nothing.
  store_->record_game(game("g2", "p", 8, 8, 2, 400));
  EXPECT_FALSE(store_->find_active("p").has_value());
  store_->journal({{"p", "g3", a.config, false, "U", 500, 0}});
  store_->journal({{"p", "g3", a.config, false, "R", 500, 1}});
  store_->journal({{"p", "g2", a.config, false, "DL", 300, 0}});
  EXPECT_EQ(store_->find_active("p")->moves, "UR");
}

TEST_P(StoreTest, RanksSurviveReopening) {
  for (const char* id : {"a", "b", "c"}) add(id, id);
  store_->record_game(game("a1", "a", 900, 128, 120, 1));
  store_->record_game(game("b1", "b", 500, 64, 90, 2));
  store_->record_game(game("c1", "c", 700, 64, 90, 3));
  EXPECT_EQ(board("b").me->rank, 3);
  store_.reset();
  store_ = open();
  EXPECT_EQ(board("b").me->rank, 3);
  EXPECT_EQ(board("c").me->rank, 2);
}

TEST_P(StoreTest, RacesFinishingAtOnceOverTheSamePlayersAllRecord) {
  // Four threads record 40 races among three players, each listing its racers in its own
  // order: with rows locked in a fixed order, none deadlocks and every result counts.
  for (const char* id : {"a", "b", "c"}) add(id, id);
  constexpr int kThreads = 4, kRaces = 10;
  std::vector<std::thread> threads;
  std::atomic<int> failures = 0;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRaces; ++i) {
        RaceRecord race;
        race.id = fmt::format("r{}", t * kRaces + i);
        race.room = fmt::format("ROOM{}", t);
        race.reason = "target";
        race.result = "{}";
        std::vector<std::string> order{"a", "b", "c"};
        std::rotate(order.begin(), order.begin() + (t + i) % 3, order.end());
        for (const std::string& p : order)
          race.ratings.push_back(rated(p, 1500, 1500, false, false));
        try {
          store_->record_race(race);
        } catch (const std::exception& e) {
          ++failures;
          ADD_FAILURE() << e.what();
        }
      }
    });
    if (!postgres()) threads.back().join();  // SQLite: one thread at a time (its contract)
  }
  for (auto& t : threads) {
    if (t.joinable()) t.join();
  }
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(query("SELECT COUNT(*) FROM races"), kThreads * kRaces);
  EXPECT_EQ(query("SELECT SUM(races) FROM players"), 3 * kThreads * kRaces);
}

TEST_P(StoreTest, FriendshipsAreKeptBothWaysAndListedByName) {
  add("p1", "ann");
  add("p2", "bob");
  add("p3", "cat");
  const auto change = [&](const char* a, const char* b, FriendAction action) {
    return store_->change_friendship(a, b, action, 2000).step.outcome;
  };
  EXPECT_EQ(change("p1", "p2", FriendAction::request), FriendOutcome::changed);
  EXPECT_EQ(change("p1", "p2", FriendAction::request), FriendOutcome::unchanged);
  EXPECT_EQ(change("p3", "p1", FriendAction::request), FriendOutcome::changed);
  // p1: asked bob; cat asked them.
  auto list = store_->friends_of("p1");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "bob");
  EXPECT_EQ(list[0].link, Link::requested);
  EXPECT_FALSE(list[0].incoming);
  EXPECT_EQ(list[1].name, "cat");
  EXPECT_TRUE(list[1].incoming);
  EXPECT_EQ(change("p2", "p1", FriendAction::accept), FriendOutcome::changed);
  list = store_->friends_of("p2");
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].id, "p1");
  EXPECT_EQ(list[0].link, Link::friends);
  EXPECT_EQ(list[0].rating, kStartRating);
  // A block ends the friendship; the blocked player's requests are dropped.
  EXPECT_EQ(change("p2", "p1", FriendAction::block), FriendOutcome::changed);
  EXPECT_EQ(change("p1", "p2", FriendAction::request), FriendOutcome::dropped);
  list = store_->friends_of("p1");
  ASSERT_EQ(list.size(), 1u);  // cat's request only
  EXPECT_EQ(list[0].id, "p3");
  EXPECT_EQ(store_->friends_of("p2")[0].link, Link::blocked);
  // Survives reopening.
  store_ = open();
  EXPECT_EQ(store_->change_friendship("p1", "p3", FriendAction::accept, 3000).step.after,
            (FriendPair{Link::friends, Link::friends}));
  EXPECT_EQ(store_->friends_of("p3")[0].link, Link::friends);
}

TEST_P(StoreTest, FriendLimitsAreCountedInTheTransaction) {
  add("me", "me");
  for (int i = 0; i < kMaxPendingRequests; ++i) {
    const std::string id = std::string("q").append(std::to_string(i));
    add(id, std::string("q-").append(std::to_string(i)));
    ASSERT_EQ(store_->change_friendship("me", id, FriendAction::request, 1).step.outcome,
              FriendOutcome::changed);
  }
  add("last", "last");
  EXPECT_EQ(store_->change_friendship("me", "last", FriendAction::request, 1).step.outcome,
            FriendOutcome::too_many_requests);
  // Accepting one frees a place.
  EXPECT_EQ(store_->change_friendship("q0", "me", FriendAction::accept, 1).step.outcome,
            FriendOutcome::changed);
  EXPECT_EQ(store_->change_friendship("me", "last", FriendAction::request, 1).step.outcome,
            FriendOutcome::changed);
}

TEST_P(StoreTest, TheDailyBoardRanksByScoreThenFewerMovesThenTheEarlierFinish) {
  EXPECT_EQ(store_->server_secret("daily", "first"), "first");
  EXPECT_EQ(store_->server_secret("daily", "second"), "first") << "made once, kept";
  const std::string day = "2026-11-24";
  const std::vector<std::tuple<std::string, std::int64_t, int, std::int64_t>> results{
      {"a", 500, 90, 3000},
      {"b", 700, 120, 9000},
      {"c", 500, 80, 5000},
      {"d", 500, 80, 4000},
      {"e", 500, 80, 4000}};
  for (const auto& [id, score, moves, at] : results) {
    add(id, "player-" + id);
    ASSERT_TRUE(store_->claim_daily(
        {.day = day, .mode = "classic-4", .player_id = id, .game_id = "g" + id, .at = 1}));
    GameRecord g = game("g" + id, id, score, 64, moves, at);
    g.daily = day;
    store_->record_game(g);
  }
  // Another day and mode are other boards.
  add("z", "player-z");
  ASSERT_TRUE(store_->claim_daily(
      {.day = "2026-11-23", .mode = "classic-4", .player_id = "z", .game_id = "gz", .at = 1}));
  LeaderboardQuery q{.mode = engine::Mode::classic,
                     .size = 4,
                     .kind = BoardKind::daily,
                     .limit = 10,
                     .player_id = "c",
                     .period = *protocol::period_from_string(day)};
  const Leaderboard board = store_->leaderboard(q);
  std::string order;
  for (const BoardEntry& e : board.entries) {
    order += e.player_id + "#" + std::to_string(e.rank) + " ";
  }
  EXPECT_EQ(order, "b#1 d#2 e#2 c#4 a#5 ");
  ASSERT_TRUE(board.me);
  EXPECT_EQ(board.me->rank, 4);
  EXPECT_EQ(board.me->game_id, "gc");
  // Daily games are on no other board, and a replay knows its day.
  EXPECT_EQ(store_->leaderboard({.mode = engine::Mode::classic, .size = 4}).entries.size(), 0u);
  EXPECT_EQ(store_->find_game("ga")->daily, day);
  EXPECT_EQ(store_->daily_attempts(day).size(), 5u);
}

// A tournament's journal entry: the latest one of each is kept, the open ones come back after
// reopening (document and all), and a finished one no longer does. A match's race keeps its
// tournament in the race journal, and once recorded is found by its room.
TEST_P(StoreTest, TournamentsAreJournaledUntilTheyAreOver) {
  TournamentRecord t{.code = "TOURN1", .state = "running", .started_at = 5'000};
  t.options.format = protocol::TournamentFormat::swiss;
  t.options.rounds = 4;
  t.options.starts = 4'000;
  t.options.mode = engine::Mode::moving_obstacle;
  t.host = "a";
  t.members = {{"a", "ann", 1600, false}, {"b", "bob", 1500, true}, {"c", "cid", 1400, false}};
  t.options.room_size = 3;
  t.matches = {
      {.round = 0, .players = {0, 2}, .state = "racing", .room = "ROOM01", .opened_at = 6'000},
      {.round = 0,
       .index = 1,
       .players = {1, 2, 0},
       .state = "done",
       .winner = 2,
       .results = {"draw", "win", "loss"}}};
  t.byes = {{0, 1}};
  t.updated_at = 7'000;
  TournamentRecord waiting{.code = "TOURN2", .host = "c", .updated_at = 8'000};
  waiting.members = {{"c", "cid", 1400, false}};
  store_->journal_tournaments({t, waiting});
  t.matches[0].state = "done";
  t.matches[0].winner = -1;
  t.matches[0].draw = true;
  store_->journal_tournaments({t});  // the later entry replaces the earlier

  store_ = open();
  std::vector<TournamentRecord> open_ones = store_->open_tournaments();
  ASSERT_EQ(open_ones.size(), 2u);
  const TournamentRecord& back = open_ones[0];
  EXPECT_EQ(back.code, "TOURN1");
  EXPECT_EQ(encode_tournament(back), encode_tournament(t));
  EXPECT_EQ(back.state, "running");
  EXPECT_EQ(back.updated_at, 7'000);
  EXPECT_EQ(back.options.mode, engine::Mode::moving_obstacle);
  EXPECT_EQ(back.options.starts, 4'000);
  EXPECT_TRUE(back.matches[0].draw);
  EXPECT_EQ(back.options.room_size, 3);
  EXPECT_EQ(back.matches[1].players, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(back.matches[1].results, (std::vector<std::string>{"draw", "win", "loss"}));
  EXPECT_EQ(open_ones[1].code, "TOURN2");
  t.state = "finished";
  store_->journal_tournaments({t});
  open_ones = store_->open_tournaments();
  ASSERT_EQ(open_ones.size(), 1u);
  EXPECT_EQ(open_ones[0].code, "TOURN2");

  ActiveRaceRecord match;
  match.id = "race-m";
  match.room = "ROOM01";
  match.options.tournament = "TOURN1";
  match.racers = {{"a", "g-a", "L", engine::GameState::playing, false}};
  store_->journal_races({match});
  ASSERT_EQ(store_->active_races().size(), 1u);
  EXPECT_EQ(store_->active_races()[0].options.tournament, "TOURN1");

  add("a", "ann");
  add("c", "cid");
  EXPECT_FALSE(store_->race_in_room("ROOM01", 6'000));
  RaceRecord race;
  race.id = "race-m";
  race.room = "ROOM01";
  race.reason = "target";
  race.winner = "c";
  race.result = R"({"standings":[{"player":"c","place":1},{"player":"a","place":1},)"
                R"({"player":"d","place":3}]})";
  race.ended_at = 9'000;
  store_->record_race(race);
  const std::optional<RaceOutcome> outcome = store_->race_in_room("ROOM01", 6'000);
  ASSERT_TRUE(outcome);
  using Places = std::vector<std::pair<std::string, int>>;
  EXPECT_EQ(outcome->places, (Places{{"c", 0}, {"a", 0}, {"d", 2}})) << "race_over's places";
  EXPECT_FALSE(outcome->closed);
  race.id = "race-old";  // recorded before race_over gave places: the winner first
  race.room = "ROOM03";
  race.result = R"({"standings":[{"player":"c"},{"player":"a"}]})";
  store_->record_race(race);
  EXPECT_EQ(store_->race_in_room("ROOM03", 0)->places, (Places{{"c", 0}, {"a", 1}}));
  EXPECT_FALSE(store_->race_in_room("ROOM01", 9'001)) << "a race before the match opened";
  store_->drop_race("race-x", "ROOM02", 10'000);
  const std::optional<RaceOutcome> closed = store_->race_in_room("ROOM02", 0);
  ASSERT_TRUE(closed);
  EXPECT_TRUE(closed->closed);
  EXPECT_TRUE(closed->places.empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, StoreTest,
                         ::testing::Values(Backend::sqlite, Backend::postgresql), backend_name);

// PostgreSQL only: several nodes on one database.
class SharedStoreTest : public ::testing::Test {
 protected:
  std::string url_ = tilerace::testing::PgCluster::shared().create_database();
};

// player's `me` rank on store's classic 4×4 board, once it equals expected or 5 s passed (a
// node hears of another's results a moment after they commit).
int rank_becomes(Store& store, const std::string& player, int expected) {
  const LeaderboardQuery query{engine::Mode::classic, 4, BoardKind::score, 10, player, {}};
  int rank = 0;
  tilerace::testing::eventually(
      [&] {
        rank = store.leaderboard(query).me->rank;
        return rank == expected;
      },
      5s);
  return rank;
}

TEST_F(SharedStoreTest, EachNodeRanksWhatTheOtherRecords) {
  PgStore a(url_, "node-a"), b(url_, "node-b");
  a.add_player({"p", "ann", "ann", 1}, std::nullopt);
  b.add_player({"q", "bob", "bob", 2}, std::nullopt);
  GameRecord g;
  g.config = {engine::Mode::classic, 4, 2048, 1};
  g.max_tile = 128;
  g.move_count = 100;
  g.ranked = true;
  const auto record = [&g](Store& on, const char* id, const char* player, std::int64_t score) {
    g.id = id;
    g.player_id = player;
    g.score = score;
    on.record_game(g);
  };
  record(a, "g1", "p", 900);
  record(b, "g2", "q", 100);
  // b ranks q second only once it has heard of p's result, recorded on a (NOTIFY).
  EXPECT_EQ(rank_becomes(b, "q", 2), 2);
  for (Store* node : {static_cast<Store*>(&a), static_cast<Store*>(&b)}) {
    const Leaderboard top =
        node->leaderboard({engine::Mode::classic, 4, BoardKind::score, 10, "", {}});
    ASSERT_EQ(top.entries.size(), 2u);
    EXPECT_EQ(top.entries[0].player_id, "p");
    EXPECT_EQ(top.entries[1].player_id, "q");
  }
  // And the other way: q's better result, recorded on b, moves p down on a.
  record(b, "g3", "q", 1000);
  EXPECT_EQ(rank_becomes(a, "p", 2), 2);
  EXPECT_EQ(rank_becomes(a, "q", 1), 1);
}

// Race r1 in room ABCDEF, with one racer two moves in.
ActiveRaceRecord running_race() {
  ActiveRaceRecord race;
  race.id = "r1";
  race.room = "ABCDEF";
  race.seed = 9;
  race.racers = {{"p", "g1", "LR", engine::GameState::playing, false}};
  return race;
}

TEST_F(SharedStoreTest, ANodeGetsBackOnlyItsOwnRunningRaces) {
  PgStore a(url_, "node-a"), b(url_, "node-b");
  ActiveRaceRecord race = running_race();
  a.journal_races({race});
  race.id = "r2";
  race.room = "GHIJKL";
  b.journal_races({race});
  ASSERT_EQ(a.active_races().size(), 1u);
  EXPECT_EQ(a.active_races()[0].room, "ABCDEF");
  EXPECT_EQ(a.active_races()[0].racers.at(0).moves, "LR");
  ASSERT_EQ(b.active_races().size(), 1u);
  EXPECT_EQ(b.active_races()[0].room, "GHIJKL");
}

TEST_F(SharedStoreTest, AJournalWriteThatMeetsTheRaceBeingRecordedDoesNotBringItBack) {
  PgStore a(url_, "node-a");
  ActiveRaceRecord race = running_race();
  a.journal_races({race});
  // The race is being recorded (as record_race does it) while the node's journal, read a moment
  // before the race ended, is written: the write waits on the recording's lock on the row.
  PgConnection recording(url_);
  recording.exec("BEGIN");
  recording.exec("INSERT INTO races VALUES ('r1', 'ABCDEF', 'all_over', 'p', '{}', 1)");
  recording.exec("DELETE FROM active_races WHERE id = 'r1'");
  std::thread journal([&] { a.journal_races({race}); });
  const auto count = [&](const char* sql) { return PgConnection(url_).exec(sql).int64(0, 0); };
  EXPECT_TRUE(tilerace::testing::eventually(
      [&] {
        return count("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'") == 1;
      },
      5s));
  recording.exec("COMMIT");
  journal.join();
  EXPECT_EQ(count("SELECT count(*) FROM active_races"), 0);
  EXPECT_EQ(count("SELECT count(*) FROM active_racers"), 0);
  EXPECT_TRUE(a.active_races().empty());
}

TEST_F(SharedStoreTest, ADeadNodesRacesAreAdoptedOnceWhoeverTriesAtTheSameTime) {
  PgStore a(url_, "node-a"), b(url_, "node-b"), c(url_, "node-c");
  constexpr int kRaces = 20;
  std::vector<ActiveRaceRecord> races;
  for (int i = 0; i < kRaces; ++i) {
    ActiveRaceRecord race;
    race.id = fmt::format("r{}", i);
    race.room = fmt::format("ROOM{:02}", i);
    race.seed = 9;
    race.started_at = i;
    race.racers = {{fmt::format("p{}", i), "g", "LR", engine::GameState::playing, false},
                   {fmt::format("q{}", i), "h", "UD", engine::GameState::playing, true}};
    races.push_back(race);
  }
  a.journal_races(races);
  EXPECT_EQ(b.race_room_of("p7"), "ROOM07");
  EXPECT_FALSE(b.race_room_of("q7").has_value());  // left the race
  EXPECT_FALSE(b.race_room_of("nobody").has_value());
  // b and c adopt a's races at the same moment: each race goes to exactly one of them.
  std::vector<ActiveRaceRecord> by_b, by_c;
  std::thread tb([&] { by_b = b.adopt_races("node-a", "ws://b/ws"); });
  std::thread tc([&] { by_c = c.adopt_races("node-a", "ws://c/ws"); });
  tb.join();
  tc.join();
  EXPECT_EQ(by_b.size() + by_c.size(), static_cast<std::size_t>(kRaces));
  std::set<std::string> ids;
  for (const auto* adopted : {&by_b, &by_c}) {
    for (const ActiveRaceRecord& r : *adopted) {
      EXPECT_TRUE(ids.insert(r.id).second) << r.id << " adopted twice";
      ASSERT_EQ(r.racers.size(), 2u);
      EXPECT_EQ(r.racers[0].moves, "LR");
      EXPECT_TRUE(r.racers[1].left);
    }
  }
  EXPECT_TRUE(a.active_races().empty());  // a's own races are a's no more
  EXPECT_EQ(b.active_races().size(), by_b.size());
  EXPECT_TRUE(b.adopt_races("node-a", "ws://b/ws").empty());  // nothing twice
}

// The lock order (docs/operations.md, "Lock order"): the old owner journaling its races — given
// in any order — while another node adopts them never deadlocks; each race ends up the
// adopter's, and the old owner's later writes are refused.
TEST_F(SharedStoreTest, JournalingAndAdoptingTheSameRacesAtOnceNeverDeadlock) {
  PgStore a(url_, "node-a"), b(url_, "node-b");
  constexpr int kRounds = 8;
  constexpr int kRaces = 12;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<ActiveRaceRecord> races;
    for (int i = 0; i < kRaces; ++i) {
      ActiveRaceRecord race;
      race.id = fmt::format("lock{}-{:02}", round, i);
      race.room = fmt::format("L{}{:02}", round, i);
      race.seed = 9;
      race.epoch = 1;
      race.racers = {{fmt::format("p{}", i), "g", "LR", engine::GameState::playing, false}};
      races.push_back(race);
    }
    a.journal_races(races);
    std::reverse(races.begin(), races.end());  // the scan order the adoption's update is not
    std::string journal_error;
    std::vector<ActiveRaceRecord> adopted;
    std::thread old_owner([&] {
      try {
        for (int i = 0; i < 3; ++i) a.journal_races(races);
      } catch (const std::exception& e) {
        journal_error = e.what();
      }
    });
    std::string adoption_error;
    try {
      adopted = b.adopt_races("node-a", "ws://b/ws");
    } catch (const std::exception& e) {
      adoption_error = e.what();
    }
    old_owner.join();
    EXPECT_EQ(journal_error, "") << "round " << round;
    EXPECT_EQ(adoption_error, "") << "round " << round;
    EXPECT_EQ(adopted.size(), static_cast<std::size_t>(kRaces));
    EXPECT_EQ(a.journal_races(races).size(), static_cast<std::size_t>(kRaces));  // all lost
  }
}

// A finished race r1 (no games, no ratings), as a node holding epoch records it.
RaceRecord finished_race(std::int64_t epoch, std::string url) {
  RaceRecord race;
  race.id = "r1";
  race.room = "ABCDEF";
  race.reason = "all_over";
  race.result = "{}";
  race.ended_at = 9;
  race.epoch = epoch;
  race.url = std::move(url);
  return race;
}

TEST_F(SharedStoreTest, AnAdoptedRaceCannotBeWrittenOrRecordedByItsFormerOwner) {
  PgStore a(url_, "node-a"), b(url_, "node-b");
  ActiveRaceRecord race = running_race();
  race.epoch = 1;
  race.url = "ws://a/ws";
  EXPECT_TRUE(a.journal_races({race}).empty());
  // b adopts it (a is taken for dead): the next epoch, and b's address.
  std::vector<ActiveRaceRecord> adopted = b.adopt_races("node-a", "ws://b/ws");
  ASSERT_EQ(adopted.size(), 1u);
  EXPECT_EQ(adopted[0].epoch, 2);
  EXPECT_EQ(adopted[0].url, "ws://b/ws");
  // a still runs it: its journal write is refused and names the owner; nothing changes.
  race.racers[0].moves = "LRUD";
  const std::vector<LostRace> lost = a.journal_races({race});
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].race_id, "r1");
  EXPECT_EQ(lost[0].owner.node, "node-b");
  EXPECT_EQ(lost[0].owner.epoch, 2);
  EXPECT_EQ(lost[0].owner.url, "ws://b/ws");
  ASSERT_EQ(b.active_races().size(), 1u);
  EXPECT_EQ(b.active_races()[0].racers.at(0).moves, "LR");
  // Nor can a record it: RaceLost, and nothing recorded.
  try {
    a.record_race(finished_race(1, "ws://a/ws"));
    FAIL() << "a stale owner recorded the race";
  } catch (const RaceLost& e) {
    EXPECT_EQ(e.owner().node, "node-b");
    EXPECT_EQ(e.owner().url, "ws://b/ws");
  }
  EXPECT_EQ(PgConnection(url_).exec("SELECT count(*) FROM races").int64(0, 0), 0);
  EXPECT_EQ(b.active_races().size(), 1u);
  // b's own writes go on under its epoch, and it records the race.
  adopted[0].racers[0].moves = "LRU";
  EXPECT_TRUE(b.journal_races(adopted).empty());
  EXPECT_NO_THROW(b.record_race(finished_race(2, "ws://b/ws")));
  EXPECT_NO_THROW(b.record_race(finished_race(2, "ws://b/ws")));  // its retry: nothing changes
  EXPECT_TRUE(b.active_races().empty());
  // Once it is recorded, a's copy learns whose it was from the record.
  const std::vector<LostRace> after = a.journal_races({race});
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].owner.node, "node-b");
  EXPECT_EQ(after[0].owner.url, "ws://b/ws");
  EXPECT_THROW(a.record_race(finished_race(1, "ws://a/ws")), RaceLost);
  EXPECT_TRUE(b.active_races().empty());  // the stale write brought nothing back
}

TEST_F(SharedStoreTest, ANodeTakingBackItsOwnRacesKeepsTheirEpoch) {
  PgStore a(url_, "node-a");
  ActiveRaceRecord race = running_race();
  race.epoch = 1;
  a.journal_races({race});
  const std::vector<ActiveRaceRecord> back = a.adopt_races("node-a", "ws://a/ws");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].epoch, 1);
  EXPECT_TRUE(a.journal_races({race}).empty());
  EXPECT_NO_THROW(a.record_race(finished_race(1, "ws://a/ws")));
}

// Two journal writes of one race can commit in the other order than their snapshots were
// taken (a mover's confirmation and the journal pass run on the store's two threads): the
// later snapshot stays, moves and outcomes alike.
TEST_F(SharedStoreTest, AnEarlierSnapshotOfARaceDoesNotReplaceALaterOne) {
  PgStore a(url_, "node-a");
  ActiveRaceRecord earlier = running_race();
  earlier.epoch = 1;
  earlier.racers.push_back({"q", "g2", "U", engine::GameState::playing, false});
  ActiveRaceRecord later = earlier;
  later.racers[0].moves = "LRD";
  later.remaining_ms = 1000;
  EXPECT_TRUE(a.journal_races({later}).empty());
  EXPECT_TRUE(a.journal_races({earlier}).empty()) << "an earlier snapshot is not a lost race";
  std::vector<ActiveRaceRecord> stored = a.active_races();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].racers.at(0).moves, "LRD");
  EXPECT_EQ(stored[0].racers.at(1).moves, "U");
  EXPECT_EQ(stored[0].remaining_ms, 1000);
  // A racer resigning adds no move but is progress too.
  ActiveRaceRecord resigned = later;
  resigned.racers[1].state = engine::GameState::resigned;
  a.journal_races({resigned});
  a.journal_races({later});
  stored = a.active_races();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].racers.at(1).state, engine::GameState::resigned);
  // The adopter's first write of the race (the same progress, from the same rows) is taken,
  // and so are its later ones.
  PgStore b(url_, "node-b");
  ASSERT_EQ(b.adopt_races("node-a", "ws://b/ws").size(), 1u);
  resigned.epoch = 2;
  EXPECT_TRUE(b.journal_races({resigned}).empty());
  ActiveRaceRecord on_b = resigned;
  on_b.racers[0].moves = "LRDU";
  EXPECT_TRUE(b.journal_races({on_b}).empty());
  stored = b.active_races();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].racers.at(0).moves, "LRDU");
  EXPECT_EQ(stored[0].epoch, 2);
}

// A solo game's journal entry is fenced as a race's: the node that resumes it takes it.
TEST_F(SharedStoreTest, ASoloGameResumedOnAnotherNodeIsWrittenByThatNodeOnly) {
  PgStore a(url_, "node-a"), b(url_, "node-b");
  a.add_player({"p", "ann", "ann", 1}, std::nullopt);
  ActiveGameRecord on_a{"p", "g1", {engine::Mode::classic, 4, 2048, 7}, false, "LR", 100};
  EXPECT_TRUE(a.journal({on_a}).empty());
  // The player comes back through b: b resumes the game under the next epoch.
  const std::optional<ActiveGameRecord> resumed = b.find_active("p");
  ASSERT_TRUE(resumed.has_value());
  EXPECT_EQ(resumed->moves, "LR");
  EXPECT_EQ(resumed->epoch, 2);
  // a still holds its copy: neither a piece nor a whole rewrite of it is written any more.
  ActiveGameRecord piece = on_a;
  piece.from = 2;
  piece.moves = "UU";
  EXPECT_EQ(a.journal({piece}), std::vector<std::string>{"g1"});
  on_a.moves = "LRUUL";
  EXPECT_EQ(a.journal({on_a}), std::vector<std::string>{"g1"});
  // b's pieces are.
  ActiveGameRecord on_b = *resumed;
  on_b.from = 2;
  on_b.moves = "DD";
  EXPECT_TRUE(b.journal({on_b}).empty());
  EXPECT_EQ(b.find_active("p")->moves, "LRDD");
  EXPECT_EQ(b.find_active("p")->epoch, 2) << "b resuming its own game keeps the epoch";
  // Back on a, a's copy is stale: a takes the current game, b's copy is stale in turn.
  EXPECT_FALSE(b.reclaim_active("p", "g1", 2).has_value()) << "b's copy is the current one";
  const std::optional<ActiveGameRecord> back = a.reclaim_active("p", "g1", 1);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->moves, "LRDD");
  EXPECT_EQ(back->epoch, 3);
  EXPECT_EQ(b.journal({on_b}), std::vector<std::string>{"g1"});
  // A new game replaces the entry from any node.
  ActiveGameRecord fresh{"p", "g2", {engine::Mode::classic, 4, 2048, 8}, false, "U", 200};
  EXPECT_TRUE(b.journal({fresh}).empty());
  EXPECT_EQ(a.find_active("p")->game_id, "g2");
}

// Filling the rank cache from a large board takes longer than the idle time PostgreSQL allows a
// transaction between statements: the fill here goes on with its second read only once the
// database shows its transaction idle for longer than that.
TEST(PgStoreStart, FillingTheRanksMayTakeLongerThanATransactionMaySitIdle) {
  const std::string url = tilerace::testing::PgCluster::shared().create_database();
  PgDialect dialect(url, "n");
  PgConnection watcher(url);
  const std::string idle_past_the_limit = fmt::format(
      "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND state = "
      "'idle in transaction' AND state_change < clock_timestamp() - interval '{} ms'",
      std::chrono::milliseconds(PgDialect::kIdleInTransactionLimit).count() + 500);
  RankCache ranks;
  constexpr BoardId kClassic4Board{engine::Mode::classic, 4, false, {}};
  dialect.keep_ranks(ranks, [&](SqlSession& sql, RankCache& fresh) {
    sql(Sql::all_bests);
    EXPECT_TRUE(tilerace::testing::eventually(
        [&] { return watcher.exec(idle_past_the_limit.c_str()).int64(0, 0) == 1; }, 10s));
    sql(Sql::all_bests);
    fresh.put_best(kClassic4Board, "p", score_key(100, 8, 10));
  });
  EXPECT_EQ(ranks.size(kClassic4Board), 1u);
}

TEST(PgStoreStart, AWrongUrlIsAClearErrorAtOnce) {
  const std::uint16_t port = tilerace::testing::PgCluster::shared().port();
  const std::string base = "postgresql://postgres:secret@127.0.0.1:";
  try {
    PgStore store(base + std::to_string(port) + "/no_such_database", "n");
    FAIL();
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no_such_database\" does not exist"), std::string::npos) << what;
    EXPECT_EQ(what.find("secret"), std::string::npos) << "the password is not repeated: " << what;
  }
  try {
    PgStore store(base + "1/tilerace", "n");  // nothing listens on port 1
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("unreachable"), std::string::npos) << e.what();
  }
}

// A fresh account becomes a bot for good; one that has played, never. Its tokens are kept as
// hashes, sign it in until revoked, and count as live sessions until then.
TEST_P(StoreTest, ABotIsForGoodAndItsTokensAreKeptAsHashesUntilRevoked) {
  add("fresh", "fresh-bot");
  add("played", "old-hand");
  store_->record_game(game("g1", "played", 100, 8, 10, 5000));
  EXPECT_EQ(store_->upgrade_to_bot("played"), BotUpgrade::played);
  EXPECT_FALSE(store_->find_player("played")->bot);
  EXPECT_EQ(store_->upgrade_to_bot("nobody"), BotUpgrade::no_such_player);
  EXPECT_EQ(store_->upgrade_to_bot("fresh"), BotUpgrade::upgraded);
  EXPECT_TRUE(store_->find_player("fresh")->bot);
  EXPECT_EQ(store_->upgrade_to_bot("fresh"), BotUpgrade::upgraded) << "a bot already";

  store_->add_bot_token("fresh", "00112233aabbccdd", "tb_secret", 6000);
  EXPECT_EQ(query("SELECT COUNT(*) FROM bot_tokens WHERE token_hash = 'tb_secret'"), 0);
  EXPECT_EQ(query("SELECT COUNT(*) FROM bot_tokens WHERE token_hash = '" +
                  server::code_hash("tb_secret") + "'"),
            1);
  EXPECT_FALSE(store_->bot_token_player("tb_other", 7000).has_value());
  const auto owner = store_->bot_token_player("tb_secret", 7000);
  ASSERT_TRUE(owner.has_value());
  EXPECT_EQ(owner->player_id, "fresh");
  EXPECT_EQ(owner->name, "fresh-bot");
  const std::vector<BotTokenRecord> tokens = store_->bot_tokens("fresh");
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].id, "00112233aabbccdd");
  EXPECT_EQ(tokens[0].created_at, 6000);
  EXPECT_EQ(tokens[0].last_used, 7000);
  const std::string session = server::code_hash("tb_secret");
  EXPECT_TRUE(store_->check_connections({"fresh"}, {session}).sessions.contains(session));

  EXPECT_FALSE(store_->revoke_bot_token("played", "00112233aabbccdd")) << "not theirs";
  EXPECT_TRUE(store_->revoke_bot_token("fresh", "00112233aabbccdd"));
  EXPECT_FALSE(store_->revoke_bot_token("fresh", "00112233aabbccdd")) << "gone already";
  EXPECT_FALSE(store_->bot_token_player("tb_secret", 8000).has_value());
  EXPECT_FALSE(store_->check_connections({"fresh"}, {session}).sessions.contains(session));
}

// Bots are kept off the people's boards: their rating board is their own, and a bot's solo
// results are on no score board. The upgrade that brought bots marks the computer's seats.
TEST_P(StoreTest, BotsHaveTheirOwnRatingBoardAndNoScoreBoard) {
  const std::int64_t t0 = 1'800'000'000'000;
  for (const char* id : {"ann", "bea", "bot1", "bot2"}) add(id, std::string("p-") + id);
  ASSERT_EQ(store_->upgrade_to_bot("bot1"), BotUpgrade::upgraded);
  ASSERT_EQ(store_->upgrade_to_bot("bot2"), BotUpgrade::upgraded);
  auto race = [&](std::string id, std::vector<RatingUpdate> ratings) {
    store_->record_race(rated_race(std::move(id), std::move(ratings), t0));
  };
  race("r1", {rated("ann", 1500, 1600, true, false), rated("bea", 1500, 1450, false, true)});
  race("r2", {rated("bot1", 1500, 1700, true, false), rated("bot2", 1500, 1400, false, true)});
  auto board = [&](bool bots, std::string me) {
    LeaderboardQuery q{.kind = BoardKind::rating, .player_id = std::move(me)};
    q.now = t0;
    q.bots = bots;
    return store_->leaderboard(q);
  };
  auto names = [](const Leaderboard& b) {
    std::string s;
    for (const BoardEntry& e : b.entries)
      s += fmt::format("{}#{}{} ", e.player_id, e.rank, e.bot ? "*" : "");
    return s;
  };
  const Leaderboard people = board(false, "bot1");
  EXPECT_EQ(names(people), "ann#1 bea#2 ");
  EXPECT_FALSE(people.me.has_value()) << "a bot is on no person's board";
  const Leaderboard bots = board(true, "bot2");
  EXPECT_EQ(names(bots), "bot1#1* bot2#2* ");
  ASSERT_TRUE(bots.me.has_value());
  EXPECT_EQ(bots.me->rank, 2);
  EXPECT_EQ(store_->rated_races_since("bot1", t0), 1);
  EXPECT_EQ(store_->rated_races_since("bot1", t0 + 1), 0);

  store_->record_game(game("g1", "bot1", 5000, 512, 300, t0));
  store_->record_game(game("g2", "ann", 100, 8, 10, t0));
  LeaderboardQuery scores{.kind = BoardKind::score, .player_id = "bot1"};
  const Leaderboard score_board = store_->leaderboard(scores);
  ASSERT_EQ(score_board.entries.size(), 1u);
  EXPECT_EQ(score_board.entries[0].player_id, "ann");
  EXPECT_FALSE(score_board.me.has_value());

  store_.reset();
  execute(std::string("DROP TABLE bot_tokens; ALTER TABLE players DROP COLUMN bot; ") +
          "INSERT INTO players (id, name, created_at) VALUES ('bot-easy', 'Computer (easy)', 0); " +
          (postgres() ? "UPDATE tilerace_schema SET version = 22" : "PRAGMA user_version = 22"));
  store_ = open();
  EXPECT_TRUE(store_->find_player("bot-easy")->bot) << "the computer's seats are bots";
  EXPECT_FALSE(store_->find_player("ann")->bot);
  EXPECT_FALSE(store_->find_player("bot1")->bot) << "the column's values went with it";
}

}  // namespace
}  // namespace tilerace::server
