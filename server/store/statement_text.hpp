#pragma once
// The text of every statement the Recorder runs (server/store/sql.hpp names each and says its
// parameters and columns), written once for SQLite and PostgreSQL: one text where the two
// languages agree, and each its own only where they truly differ (upserts that announce rank
// changes, JSON arrays, the cluster's columns that one server has no use for). Texts number
// their placeholders ?N, as SQLite does; PostgreSQL's $N are made from them.
#include <cstdint>
#include <string>

#include "server/store/sql.hpp"

namespace tilerace::server {

enum class SqlLanguage : std::uint8_t { sqlite, postgres };

// The text of statement in language, placeholders numbered as language numbers them; "" if that
// language has no such statement (the Recorder never runs it there).
std::string statement_text(Sql statement, SqlLanguage language);

}  // namespace tilerace::server
