#include "env_config.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "settings.hpp"
#include "rocshmem_emu_workitem.h"

namespace rocshmem_emu {

bool parse_byte_size(const char* text, size_t* out, bool* suffixed) {
  if (!text) return false;
  const char* p = text;
  while (isspace(static_cast<unsigned char>(*p))) p++;
  if (!isdigit(static_cast<unsigned char>(*p))) return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long value = strtoull(p, &end, 10);
  if (errno == ERANGE) return false;
  unsigned shift = 0;
  switch (toupper(static_cast<unsigned char>(*end))) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    default: break;
  }
  if (shift && (*end == 'i' || *end == 'I')) end++;
  if (*end == 'B' || *end == 'b') end++;
  while (isspace(static_cast<unsigned char>(*end))) end++;
  if (*end != '\0') return false;
  if (shift && value > (~0ULL >> shift)) return false;
  *out = static_cast<size_t>(value << shift);
  if (suffixed) *suffixed = shift != 0;
  return true;
}

const char* const kDebugLevels[8] = {"NONE", "ERROR", "WARN", "ENV", "VERSION", "INFO", "API", "TRACE"};

int parse_debug_level(const char* text) {
  static const char* const kModifiers[] = {"noerror", "nowarn", "noenv", "noversion", "noinfo", "noapi", "notrace",
                                           "env", "all", "full", "modified", "color", "nocolor", "stats"};
  std::string value = text;
  for (char& c : value) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  size_t colon = value.find(':');
  std::string level = value.substr(0, colon);
  int found = -1;
  for (int i = 0; i < 8; i++) {
    std::string name = kDebugLevels[i];
    for (char& c : name) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
    if (level == name) found = i;
  }
  if (found < 0 && !level.empty() && level.find_first_not_of("0123456789") == std::string::npos && level.size() < 4)
    found = std::min(7, atoi(level.c_str()) == 0 ? 0 : 4 + atoi(level.c_str()));  // the emulator's old numbers
  while (found >= 0 && colon != std::string::npos) {
    size_t next = value.find(':', colon + 1);
    std::string mod = value.substr(colon + 1, next == std::string::npos ? std::string::npos : next - colon - 1);
    bool known = false;
    for (const char* m : kModifiers) known |= mod == m;
    if (!known) return -1;
    colon = next;
  }
  return found;
}

namespace {

// Unsigned counts like rocSHMEM's parser (decimal, 0x hex, leading-0 octal; no sign), but whole
// values only and within [lo, hi]: a refused value ends init with one sentence naming it.
bool read_count(const char* name, size_t lo, size_t hi, size_t* out, std::string* error) {
  const char* v = getenv(name);
  if (!v || !*v) return true;
  errno = 0;
  char* end = nullptr;
  unsigned long long n = v[0] == '-' ? 0 : strtoull(v, &end, 0);
  if (v[0] == '-' || !end || *end != '\0' || errno == ERANGE || n < lo || n > hi) {
    *error = std::string("invalid ") + name + "='" + v + "' (expected a whole number from " + std::to_string(lo) +
             " to " + std::to_string(hi) + ")";
    return false;
  }
  *out = static_cast<size_t>(n);
  return true;
}

// rocSHMEM bools: true/false or 0/1.
bool read_bool(const char* name, bool* out, bool* present, std::string* error) {
  const char* v = getenv(name);
  *present = v && *v;
  if (!*present) return true;
  if (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0) return *out = true, true;
  if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0) return *out = false, true;
  *error = std::string("invalid ") + name + "='" + v + "' (expected true, false, 1 or 0)";
  return false;
}

}  // namespace

// Parses a whole decimal int; false for empty strings, junk or overflow.
static bool parse_int(const char* text, long lo, long hi, int* out) {
  if (!text || !*text) return false;
  errno = 0;
  char* end = nullptr;
  long v = strtol(text, &end, 10);
  if (errno == ERANGE || *end != '\0' || v < lo || v > hi) return false;
  *out = static_cast<int>(v);
  return true;
}

bool load_env_config(EnvConfig* cfg, std::string* error) {
  // The kernel engine's settings (libhip_cpu_emu) are refused here too: init, not a launch, fails.
  if (char message[256]; rocshmem_emu_wi_check_settings(message, sizeof message) != 0) return *error = message, false;
  if (const char* v = getenv("ROCSHMEM_HEAP_SIZE")) {
    size_t size = 0;
    bool suffixed = false;
    if (!parse_byte_size(v, &size, &suffixed) || size == 0 || size > kLargestHeap) {
      *error = std::string("invalid ROCSHMEM_HEAP_SIZE='") + v + "' (expected bytes per PE, from 1 to " +
               std::to_string(kLargestHeap) + "; the emulator also takes K/M/G/T suffixes)";
      return false;
    }
    if (suffixed)
      cfg->warnings.push_back(std::string("ROCSHMEM_HEAP_SIZE='") + v + "': rocSHMEM takes plain bytes and reads this as " +
                              std::to_string(strtoull(v, nullptr, 10)) + " byte(s); the emulator uses " +
                              std::to_string(size) + " bytes. Write ROCSHMEM_HEAP_SIZE=" + std::to_string(size) +
                              " for a GPU run");
    else if (size < kSmallestMeantHeap)
      cfg->warnings.push_back(std::string("ROCSHMEM_HEAP_SIZE=") + v + " is " + v +
                              " byte(s) per PE (the unit is bytes, not KB, MB or GB): most rocshmem_malloc calls will"
                              " return NULL. 1 GiB is ROCSHMEM_HEAP_SIZE=1073741824");
    long page = sysconf(_SC_PAGESIZE);
    cfg->heap_usable = size;
    cfg->heap_size = (size + page - 1) / page * page;
  }
  if (!emu_common::bootstrap_timeout_seconds(&cfg->bootstrap_timeout_s, error)) return false;
  if (!read_count("ROCSHMEM_MAX_NUM_HOST_CONTEXTS", 1, kLargestCount, &cfg->max_host_contexts, error) ||
      !read_count("ROCSHMEM_MAX_NUM_CONTEXTS", 0, kLargestCount, &cfg->max_contexts, error) ||
      !read_count("ROCSHMEM_MAX_NUM_TEAMS", kReservedTeams, kLargestCount, &cfg->max_teams, error) ||
      !read_count("ROCSHMEM_MAX_SYMM_REGIONS", 0, kLargestCount, &cfg->max_symm_regions, error))
    return false;
  bool present = false;
  if (!read_bool("ROCSHMEM_DISABLE_MIXED_IPC", &cfg->disable_mixed_ipc, &present, error)) return false;
  for (const char* deprecated : {"ROCSHMEM_DISABLE_IPC", "ROCSHMEM_RO_DISABLE_IPC"}) {
    bool value = false;
    if (!read_bool(deprecated, &value, &present, error)) return false;
    if (!present) continue;
    cfg->disable_mixed_ipc |= value;
    cfg->warnings.push_back(std::string(deprecated) + " is deprecated. Please use ROCSHMEM_DISABLE_MIXED_IPC");
  }
  if (const char* v = getenv("ROCSHMEM_HEAP_ALLOCATOR_TYPE"); v && *v) {
    static const char* const kAllocators[] = {"uncached", "finegrained", "coarsegrained", "vmm_posix", "vmm_fabric"};
    bool known = false;
    for (const char* a : kAllocators) known |= strcasecmp(v, a) == 0;
    if (!known) {
      *error = std::string("Unknown ROCSHMEM_HEAP_ALLOCATOR_TYPE value '") + v +
               "' (rocSHMEM 3.7+ takes uncached, finegrained, coarsegrained, vmm_posix or vmm_fabric)";
      return false;
    }
    cfg->heap_allocator = v;
  }
  if (const char* v = getenv("ROCSHMEM_DEBUG_LEVEL"); v && *v) {
    int level = parse_debug_level(v);
    if (level < 0) {
      *error = std::string("invalid ROCSHMEM_DEBUG_LEVEL='") + v +
               "' (expected NONE, ERROR, WARN, ENV, VERSION, INFO, API or TRACE, optionally followed by :modifiers)";
      return false;
    }
    cfg->debug_level = level;
  }
  if (const char* v = getenv("ROCSHMEM_EMU_PROFILE"); v && *v) {
    if (strcmp(v, "ipc-uid") == 0)
      cfg->profile = EmuProfile::ipc_uid;
    else if (strcmp(v, "none") == 0)
      cfg->profile = EmuProfile::none;
    else {
      *error = std::string("invalid ROCSHMEM_EMU_PROFILE='") + v + "' (expected none or ipc-uid)";
      return false;
    }
  }
  if (const char* v = getenv("ROCSHMEM_EMU_SHM_DIR"); v && *v) {
    struct stat sb;
    if (v[0] != '/' || stat(v, &sb) != 0 || !S_ISDIR(sb.st_mode) || access(v, W_OK | X_OK) != 0) {
      *error = std::string("invalid ROCSHMEM_EMU_SHM_DIR='") + v +
               "' (expected an absolute path to a writable directory, ideally on a tmpfs)";
      return false;
    }
    cfg->shm_dir = v;
  }
  if (const char* v = getenv("ROCSHMEM_EMU_HEAP_RESERVE"); v && *v) {
    if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
      *error = std::string("invalid ROCSHMEM_EMU_HEAP_RESERVE='") + v + "' (expected 0 or 1)";
      return false;
    }
    cfg->reserve_heap = v[0] == '1';
  }
  if (const char* v = getenv("ROCSHMEM_EMU_COMPLETION"); v && *v) {
    if (strcmp(v, "deferred") == 0)
      cfg->completion = CompletionMode::deferred;
    else if (strcmp(v, "fifo") == 0)
      cfg->completion = CompletionMode::fifo;
    else if (strcmp(v, "immediate") == 0)
      cfg->completion = CompletionMode::immediate;
    else {
      *error = std::string("invalid ROCSHMEM_EMU_COMPLETION='") + v + "' (expected deferred, fifo or immediate)";
      return false;
    }
  }
  if (const char* v = getenv("ROCSHMEM_EMU_DELIVERY_SEED"); v && *v) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long seed = strtoull(v, &end, 10);
    if (errno != 0 || *end != '\0' || !isdigit(static_cast<unsigned char>(v[0]))) {
      *error = std::string("invalid ROCSHMEM_EMU_DELIVERY_SEED='") + v + "' (expected a decimal number, 0..2^64-1)";
      return false;
    }
    cfg->delivery_seed = seed;
    cfg->delivery_seed_set = true;
  }
  if (const char* v = getenv("ROCSHMEM_EMU_PROGRESS_MS"); v && *v) {
    if (!parse_int(v, 1, 3600000, &cfg->progress_ms)) {
      *error = std::string("invalid ROCSHMEM_EMU_PROGRESS_MS='") + v + "' (expected milliseconds, 1..3600000)";
      return false;
    }
  }
  if (const char* v = getenv("ROCSHMEM_EMU_TEST_FAULT"); v && *v) {
    std::string text = v;
    size_t a = text.find(':'), b = a == std::string::npos ? a : text.find(':', a + 1);
    int rank = -1;
    std::string phase = b == std::string::npos ? "" : text.substr(a + 1, b - a - 1);
    std::string action = b == std::string::npos ? "" : text.substr(b + 1);
    static const char* const kPhases[] = {"start", "control", "heap", "joined", "mapped"};
    static const char* const kActions[] = {"kill", "term", "exit", "fail"};
    auto one_of = [](const std::string& s, const char* const* list, size_t n) {
      for (size_t i = 0; i < n; i++)
        if (s == list[i]) return true;
      return false;
    };
    if (b == std::string::npos || !parse_int(text.substr(0, a).c_str(), 0, 1 << 20, &rank) ||
        !one_of(phase, kPhases, 5) || !one_of(action, kActions, 4)) {
      *error = std::string("invalid ROCSHMEM_EMU_TEST_FAULT='") + v +
               "' (expected <rank>:<start|control|heap|joined|mapped>:<kill|term|exit|fail>)";
      return false;
    }
    cfg->fault = InitFault{rank, phase, action};
  }
  return true;
}

bool load_env_placement(EnvPlacement* placement, std::string* error) {
  struct Pair { const char* rank; const char* size; };
  static const Pair pairs[] = {{"RANK", "WORLD_SIZE"},
                               {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}};
  for (const Pair& pair : pairs) {
    const char* r = getenv(pair.rank);
    const char* s = getenv(pair.size);
    if (!r && !s) continue;
    if (!r || !s) {
      *error = std::string(r ? pair.size : pair.rank) + " is not set but " +
               (r ? pair.rank : pair.size) + " is";
      return false;
    }
    int size = 0, rank = 0;
    if (!parse_int(s, 1, 1 << 20, &size)) {
      *error = std::string("invalid ") + pair.size + "='" + s + "' (expected a positive integer)";
      return false;
    }
    if (!parse_int(r, 0, size - 1, &rank)) {
      *error = std::string("invalid ") + pair.rank + "='" + r + "' (expected 0.." +
               std::to_string(size - 1) + ")";
      return false;
    }
    placement->rank = rank;
    placement->world_size = size;
    placement->source = pair.rank;
    return true;
  }
  return true;
}

bool load_pes_per_node(int n_pes, int* size, std::string* source, std::string* warning, std::string* error) {
  *size = n_pes;
  *source = "one node";
  warning->clear();
  if (const char* v = getenv("ROCSHMEM_EMU_PES_PER_NODE"); v && *v) {  // the emulator's own: exact
    int n = 0;
    if (!parse_int(v, 1, n_pes, &n)) {
      *error = std::string("invalid ROCSHMEM_EMU_PES_PER_NODE='") + v + "' (expected PEs per node, 1.." +
               std::to_string(n_pes) + ")";
      return false;
    }
    *size = n;
    *source = "ROCSHMEM_EMU_PES_PER_NODE";
    return true;
  }
  for (const char* name : {"LOCAL_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE"}) {
    const char* v = getenv(name);
    if (!v || !*v) continue;
    std::string text = v;
    if (strcmp(name, "SLURM_NTASKS_PER_NODE") == 0) text = text.substr(0, text.find_first_of("(,"));
    int n = 0;
    if (!parse_int(text.c_str(), 1, 1 << 20, &n)) {
      *error = std::string("invalid ") + name + "='" + v + "' (expected the launcher's processes per node, 1 or more)";
      return false;
    }
    // The launcher's job size, when it says (torchrun / Open MPI).
    int job = 0;
    for (const char* job_name : {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE"})
      if (const char* j = getenv(job_name); j && *j && parse_int(j, 1, 1 << 20, &job)) break;
    if (n >= n_pes) {
      if (n > n_pes)
        *warning = std::string(name) + "=" + v + " describes the launcher's job" +
                   (job > 0 ? " (of " + std::to_string(job) + " processes)" : std::string()) +
                   ", not this rocSHMEM world of " + std::to_string(n_pes) + " PEs: all " + std::to_string(n_pes) +
                   " PEs are taken to share one node (set ROCSHMEM_EMU_PES_PER_NODE to simulate others)";
      *size = n_pes;
      *source = name;
      return true;
    }
    if (job > 0 && job != n_pes) {
      *error = std::string(name) + "=" + v + " gives nodes of the launcher's job of " + std::to_string(job) +
               " processes, but this rocSHMEM world has " + std::to_string(n_pes) +
               " PEs: which of them share a node is unknown; set ROCSHMEM_EMU_PES_PER_NODE (1.." +
               std::to_string(n_pes) + ")";
      return false;
    }
    *size = n;
    *source = name;
    return true;
  }
  return true;
}

bool derive_job_key(const EnvPlacement& placement, std::string* key, std::string* source, std::string* error) {
  std::string base;
  if (const char* v = getenv("ROCSHMEM_EMU_JOB_ID"); v && *v) {
    base = std::string("job:") + v;
    *source = "ROCSHMEM_EMU_JOB_ID";
  } else if (const char* v = getenv("PMIX_NAMESPACE"); v && *v) {
    base = std::string("pmix:") + v;
    *source = "PMIX_NAMESPACE";
  } else if (const char* v = getenv("OMPI_MCA_ess_base_jobid"); v && *v) {
    base = std::string("ompi:") + v;
    *source = "OMPI_MCA_ess_base_jobid";
  } else if (const char* a = getenv("MASTER_ADDR"), *p = getenv("MASTER_PORT"); a && *a && p && *p) {
    base = std::string("master:") + a + ":" + p;
    *source = "MASTER_ADDR/MASTER_PORT";
  } else if (placement.world_size == 1) {
    base.clear();  // caller picks a random private key
  } else {
    *error = "WORLD_SIZE > 1 but no job id found to rendezvous with the other PEs: set "
             "ROCSHMEM_EMU_JOB_ID (or MASTER_ADDR and MASTER_PORT) to the same value on every PE";
    return false;
  }
  if (!base.empty())
    base += "|n=" + std::to_string(placement.world_size) + "|uid=" + std::to_string(getuid());
  *key = base;
  return true;
}

}  // namespace rocshmem_emu
