#pragma once
// A short fingerprint of a game's state — "<moves>:<score>:<board hash>" — journaled with a
// race's moves so that a node rebuilding the race from seed and moves (failover) can check it
// arrives where the players were.
#include <string>

#include "engine/game.hpp"

namespace tilerace::server {

std::string game_check(const engine::Game& game);

}  // namespace tilerace::server
