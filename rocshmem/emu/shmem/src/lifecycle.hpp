// Init and finalize shared by every rocshmem_init* entry point.
#pragma once

#include <string>

#include "bootstrap.hpp"

namespace rocshmem_emu {

// Joins the job described by request (env or unique id). 0 on success (also when already
// initialized), non-zero after one error line; the reason stays in runtime().last_error.
int initialize(const JoinRequest& request);

// Builds the request for an environment-launched job (RANK/WORLD_SIZE...). false + error.
bool env_join_request(JoinRequest* request, std::string* error);

// Collective teardown; a no-op when not initialized.
void finalize();

// Remembers and prints an init failure; returns the non-zero status to give the caller.
int init_failed(const std::string& error);

}  // namespace rocshmem_emu
