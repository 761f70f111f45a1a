// Environment variables read by the emulator at init, validated up front so a typo gives one
// clear line naming the variable instead of a strange failure later.
#pragma once

#include <cstddef>
#include <string>

#include "completion.hpp"

namespace rocshmem_emu {

// ROCSHMEM_EMU_TEST_FAULT=<rank>:<phase>:<action>: the PE of that rank misbehaves at that
// init phase, so tests can prove that a death at any moment of init leaks nothing.
struct InitFault {
  int rank = -1;       // -1: no fault
  std::string phase;   // start | control | heap | joined | mapped
  std::string action;  // kill (SIGKILL) | term (SIGTERM) | exit (_exit(3)) | fail (init error)
};

struct EnvConfig {
  size_t heap_size = size_t(1) << 30;  // ROCSHMEM_HEAP_SIZE, default 1 GiB like rocSHMEM
  double bootstrap_timeout_s = 60.0;   // ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT
  std::string shm_dir = "/dev/shm";    // ROCSHMEM_EMU_SHM_DIR
  bool reserve_heap = false;           // ROCSHMEM_EMU_HEAP_RESERVE=1: allocate the heap's memory at init
  InitFault fault;                     // ROCSHMEM_EMU_TEST_FAULT
  CompletionMode completion = CompletionMode::deferred;  // ROCSHMEM_EMU_COMPLETION
  int progress_ms = 10;                // ROCSHMEM_EMU_PROGRESS_MS: latest delivery of an unquieted put
};

// Parses "<digits>[K|M|G|T][B|iB]" (binary units, case-insensitive); false on garbage/overflow.
bool parse_byte_size(const char* text, size_t* out);

// Reads every emulator variable; on error returns false and sets *error to one sentence.
bool load_env_config(EnvConfig* cfg, std::string* error);

// Where this process sits in an environment-launched job (RANK/WORLD_SIZE, else
// OMPI_COMM_WORLD_RANK/SIZE, else a single PE).
struct EnvPlacement {
  int rank = 0;
  int world_size = 1;
  const char* source = "default (single PE)";
};
bool load_env_placement(EnvPlacement* placement, std::string* error);

// The key that lets the processes of one job find each other without talking (documented rule):
//   1. ROCSHMEM_EMU_JOB_ID (set by the project's Java launcher),
//   2. PMIX_NAMESPACE, else OMPI_MCA_ess_base_jobid (mpirun / Open MPI),
//   3. MASTER_ADDR:MASTER_PORT (torchrun-style launchers),
//   4. a single PE needs no key (a random one is used).
// The job key is combined with WORLD_SIZE and the user id. Returns false when several PEs are
// expected but no key exists.
// *source names the variable(s) the key came from, for messages.
bool derive_job_key(const EnvPlacement& placement, std::string* key, std::string* source, std::string* error);

}  // namespace rocshmem_emu
