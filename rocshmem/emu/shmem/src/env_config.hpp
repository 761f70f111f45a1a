// Environment variables read by the emulator at init, validated up front so a typo gives one
// clear line naming the variable instead of a strange failure later.
#pragma once

#include <cstddef>
#include <string>

namespace rocshmem_emu {

struct EnvConfig {
  size_t heap_size = size_t(1) << 30;  // ROCSHMEM_HEAP_SIZE, default 1 GiB like rocSHMEM
  double bootstrap_timeout_s = 60.0;   // ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT
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
bool derive_job_key(const EnvPlacement& placement, std::string* key, std::string* error);

}  // namespace rocshmem_emu
