// The header's extern variables (team handles, context sentinels) are defined in globals.cpp;
// init and finalize publish the predefined teams through them.
#pragma once

#include "teams.hpp"

namespace rocshmem_emu {

void publish_team_globals(Team* world, Team* shared);

}  // namespace rocshmem_emu
