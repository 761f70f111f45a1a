// Environment variables read by the emulator at init, validated up front so a typo gives one
// clear line naming the variable instead of a strange failure later.
#pragma once

#include "settings.hpp"

#include <cstddef>
#include <string>
#include <vector>

#include "completion.hpp"

namespace rocshmem_emu {

// ROCSHMEM_EMU_TEST_FAULT=<rank>:<phase>:<action>: the PE of that rank misbehaves at that
// init phase, so tests can prove that a death at any moment of init leaks nothing.
struct InitFault {
  int rank = -1;       // -1: no fault
  std::string phase;   // start | control | heap | joined | mapped
  std::string action;  // kill (SIGKILL) | term (SIGTERM) | exit (_exit(3)) | fail (init error)
};

// Backend and bootstrap restrictions of the real library a run may ask to see (ROCSHMEM_EMU_PROFILE).
enum class EmuProfile {
  none,    // the emulator's own (most permissive) behaviour
  ipc_uid  // IPC backend initialised with a unique id (no MPI), rocSHMEM 3.5/3.6
};

// Limits of the real rocSHMEM (3.5/3.6 defaults; docs/settings.md says which are published).
constexpr size_t kDefaultMaxHostContexts = 1;   // ROCSHMEM_MAX_NUM_HOST_CONTEXTS, default ctx included
constexpr size_t kDefaultMaxContexts = 32;      // ROCSHMEM_MAX_NUM_CONTEXTS (device contexts)
constexpr size_t kDefaultMaxTeams = 40;         // ROCSHMEM_MAX_NUM_TEAMS, predefined teams included
constexpr size_t kReservedTeams = 2;            // WORLD and SHARED on the IPC backend
constexpr size_t kDefaultMaxSymmRegions = 4;    // ROCSHMEM_MAX_SYMM_REGIONS
constexpr size_t kSmallestMeantHeap = 64 * 1024;  // below this a heap size is taken for a unit mistake (chosen)
constexpr size_t kLargestHeap = size_t(1) << 40;  // emulator limit per PE (chosen)
constexpr size_t kLargestCount = 4096;             // emulator limit of the count settings (chosen)

struct EnvConfig {
  size_t heap_size = size_t(1) << 30;  // ROCSHMEM_HEAP_SIZE, default 1 GiB like rocSHMEM; mapped size (pages)
  size_t heap_usable = size_t(1) << 30;  // what the allocator may hand out: exactly the value given
  double bootstrap_timeout_s = 60.0;   // ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT
  std::string shm_dir = "/dev/shm";    // ROCSHMEM_EMU_SHM_DIR
  bool reserve_heap = false;           // ROCSHMEM_EMU_HEAP_RESERVE=1: allocate the heap's memory at init
  InitFault fault;                     // ROCSHMEM_EMU_TEST_FAULT
  size_t max_host_contexts = kDefaultMaxHostContexts;
  size_t max_contexts = kDefaultMaxContexts;
  size_t max_teams = kDefaultMaxTeams;
  size_t max_symm_regions = kDefaultMaxSymmRegions;
  bool disable_mixed_ipc = false;      // ROCSHMEM_DISABLE_MIXED_IPC (or a deprecated name); no effect on IPC
  std::string heap_allocator;          // ROCSHMEM_HEAP_ALLOCATOR_TYPE (3.7+), validated; no effect here
  int debug_level = 1;                 // ROCSHMEM_DEBUG_LEVEL as an index into kDebugLevels (ERROR)
  EmuProfile profile = EmuProfile::none;  // ROCSHMEM_EMU_PROFILE
  std::vector<std::string> warnings;   // printed once by rank 0 at init
  CompletionMode completion = CompletionMode::deferred;  // ROCSHMEM_EMU_COMPLETION
  int progress_ms = 10;                // ROCSHMEM_EMU_PROGRESS_MS: latest delivery of an unquieted put
  bool delivery_seed_set = false;      // ROCSHMEM_EMU_DELIVERY_SEED given (else PE 0 draws one per job)
  uint64_t delivery_seed = 0;
};

// Parses "<digits>[K|M|G|T][B|iB]" (binary units, case-insensitive); false on garbage/overflow.
// *suffixed tells whether a unit was given (the real library takes plain bytes only).
bool parse_byte_size(const char* text, size_t* out, bool* suffixed = nullptr);

// ROCSHMEM_DEBUG_LEVEL levels in order (each includes the lower ones); ERROR is the 3.5 default.
extern const char* const kDebugLevels[8];  // NONE ERROR WARN ENV VERSION INFO API TRACE
// Parses "<level>[:modifier...]" (case-insensitive); -1 when invalid.
int parse_debug_level(const char* text);

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

// PEs per simulated node: ROCSHMEM_EMU_PES_PER_NODE, else the launcher's LOCAL_WORLD_SIZE, else
// OMPI_COMM_WORLD_LOCAL_SIZE, else SLURM_NTASKS_PER_NODE (its first entry), else all PEs. Node k
// holds world PEs [k*size, (k+1)*size). *source names where it came from.
// The launcher's variables describe the launcher's job, which may be larger than the rocSHMEM
// world (a unique-id init on a subset of its ranks, as rocshmem4py's process groups do): a node
// size of at least n_pes then means one node, with *warning saying so; a smaller one with a job of
// another size (WORLD_SIZE, OMPI_COMM_WORLD_SIZE) is refused, since which PEs share a node is unknown.
bool load_pes_per_node(int n_pes, int* size, std::string* source, std::string* warning, std::string* error);

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
