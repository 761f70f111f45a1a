#include "env_config.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace rocshmem_emu {

bool parse_byte_size(const char* text, size_t* out) {
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
  return true;
}

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
  if (const char* v = getenv("ROCSHMEM_HEAP_SIZE")) {
    size_t size = 0;
    const size_t min_size = 64 * 1024, max_size = size_t(1) << 40;
    if (!parse_byte_size(v, &size) || size < min_size || size > max_size) {
      *error = std::string("invalid ROCSHMEM_HEAP_SIZE='") + v +
               "' (expected bytes with optional K/M/G/T suffix, between 64K and 1T)";
      return false;
    }
    long page = sysconf(_SC_PAGESIZE);
    cfg->heap_size = (size + page - 1) / page * page;
  }
  if (const char* v = getenv("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT")) {
    char* end = nullptr;
    errno = 0;
    double s = strtod(v, &end);
    if (!*v || *end != '\0' || errno == ERANGE || !(s > 0) || s > 86400) {
      *error = std::string("invalid ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT='") + v +
               "' (expected seconds, > 0 and <= 86400)";
      return false;
    }
    cfg->bootstrap_timeout_s = s;
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
    else if (strcmp(v, "immediate") == 0)
      cfg->completion = CompletionMode::immediate;
    else {
      *error = std::string("invalid ROCSHMEM_EMU_COMPLETION='") + v + "' (expected deferred or immediate)";
      return false;
    }
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
