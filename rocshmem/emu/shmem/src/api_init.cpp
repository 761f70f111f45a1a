// Hand-written API: init variants, unique ids, finalize, queries, global_exit.
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include "api_include.hpp"
#include "lifecycle.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "stats.hpp"
#include "wait.hpp"

using namespace rocshmem_emu;

namespace {

// Layout of the 128-byte unique id (the content is the emulator's own business).
constexpr char kUidMagic[8] = {'R', 'S', 'H', 'M', 'E', 'M', 'U', '1'};
constexpr size_t kUidNamespace = 8, kUidSecret = 24, kUidTokenBytes = 16;

int init_from_env(const char* fn) {
  JoinRequest request;
  std::string error;
  if (!env_join_request(&request, &error)) return init_failed(std::string(fn) + ": " + error);
  return initialize(request);
}

}  // namespace

ROCSHMEM_EMU_API void rocshmem::rocshmem_init() { init_from_env("rocshmem_init"); }

// The emulator has no MPI: the communicator is ignored and the PEs are found exactly as for
// rocshmem_init() (RANK/WORLD_SIZE or OMPI_COMM_WORLD_*), which matches MPI_COMM_WORLD under mpirun.
ROCSHMEM_EMU_API void rocshmem::rocshmem_init(MPI_Comm comm) {
  debug_log(1, "rocshmem_init(MPI_Comm %p): the emulator ignores the communicator", static_cast<void*>(comm));
  init_from_env("rocshmem_init");
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_init_thread(int requested, int* provided, MPI_Comm comm) {
  if (requested < ROCSHMEM_THREAD_SINGLE || requested > ROCSHMEM_THREAD_MULTIPLE) {
    report_error("rocshmem_init_thread: invalid thread level %d", requested);
    return ROCSHMEM_ERROR;
  }
  debug_log(1, "rocshmem_init_thread(MPI_Comm %p): the emulator ignores the communicator", static_cast<void*>(comm));
  int status = init_from_env("rocshmem_init_thread");
  if (status == 0 && provided) *provided = ROCSHMEM_THREAD_MULTIPLE;  // every entry point is thread-safe
  return status;
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_get_uniqueid(rocshmem_uniqueid_t* uid) {
  if (!uid) return report_error("rocshmem_get_uniqueid: uid is null"), ROCSHMEM_ERROR;
  uid->fill(0);
  memcpy(uid->data(), kUidMagic, sizeof kUidMagic);
  if (!random_bytes(uid->data() + kUidNamespace, 2 * kUidTokenBytes))
    return report_error("rocshmem_get_uniqueid: getrandom failed"), ROCSHMEM_ERROR;
  return ROCSHMEM_SUCCESS;
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_set_attr_uniqueid_args(int rank, int nranks, rocshmem_uniqueid_t* uid,
                                                               rocshmem_init_attr_t* attr) {
  if (!uid || !attr) return report_error("rocshmem_set_attr_uniqueid_args: null uid or attr"), ROCSHMEM_ERROR;
  if (nranks < 1 || rank < 0 || rank >= nranks) {
    report_error("rocshmem_set_attr_uniqueid_args: invalid rank %d of %d", rank, nranks);
    return ROCSHMEM_ERROR;
  }
  attr->rank = rank;
  attr->nranks = nranks;
  attr->uid = *uid;
  attr->mpi_comm = nullptr;
  return ROCSHMEM_SUCCESS;
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_init_attr(unsigned int flags, rocshmem_init_attr_t* attr) {
  if (flags == ROCSHMEM_INIT_WITH_MPI_COMM)
    return init_failed("rocshmem_init_attr: ROCSHMEM_INIT_WITH_MPI_COMM is not supported by the CPU emulator "
                       "(it has no MPI); use ROCSHMEM_INIT_WITH_UNIQUEID or rocshmem_init()");
  if (flags != ROCSHMEM_INIT_WITH_UNIQUEID)
    return init_failed("rocshmem_init_attr: unknown flags " + std::to_string(flags));
  if (!attr) return init_failed("rocshmem_init_attr: attr is null");
  if (memcmp(attr->uid.data(), kUidMagic, sizeof kUidMagic) != 0)
    return init_failed("rocshmem_init_attr: attr->uid was not made by rocshmem_get_uniqueid");
  JoinRequest request;
  request.rank = attr->rank;
  request.n_pes = attr->nranks;
  request.job_key = "u" + hex(attr->uid.data() + kUidNamespace, kUidTokenBytes);
  request.job_source = "unique id";
  memcpy(request.secret, attr->uid.data() + kUidSecret, kUidTokenBytes);
  return initialize(request);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_finalize() { rocshmem_emu::finalize(); }

ROCSHMEM_EMU_API void rocshmem::rocshmem_query_thread(int* provided) {
  if (provided) *provided = ROCSHMEM_THREAD_MULTIPLE;
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_n_pes() { return is_initialized() ? runtime().n_pes : -1; }

ROCSHMEM_EMU_API int rocshmem::rocshmem_my_pe() { return is_initialized() ? runtime().my_pe : -1; }

ROCSHMEM_EMU_API void rocshmem::rocshmem_info_get_version(int* major, int* minor) {
  if (major) *major = ROCSHMEM_MAJOR_VERSION;
  if (minor) *minor = ROCSHMEM_MINOR_VERSION;
}

// Like rocSHMEM: the configured vendor string, "rocSHMEM_v<version>_<backend>".
ROCSHMEM_EMU_API void rocshmem::rocshmem_info_get_name(char* name) {
  static const char kName[] = ROCSHMEM_VENDOR_STRING;
  static_assert(sizeof kName <= ROCSHMEM_MAX_NAME_LEN, "name must fit ROCSHMEM_MAX_NAME_LEN with its NUL");
  if (name) memcpy(name, kName, sizeof kName);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_vendor_get_version_info(int* major, int* minor, int* patch) {
  if (major) *major = ROCSHMEM_VENDOR_MAJOR_VERSION;
  if (minor) *minor = ROCSHMEM_VENDOR_MINOR_VERSION;
  if (patch) *patch = ROCSHMEM_VENDOR_PATCH_VERSION;
}

// OpenSHMEM: ends the whole program. Peers blocked in a wait/barrier notice the request within
// ~20 ms and exit with the same status; a peer that never waits again exits at its next
// blocking call or at finalize.
ROCSHMEM_EMU_API void rocshmem::rocshmem_global_exit(int status) {
  if (is_initialized() && !claim_job_abort(status, kExitGlobalExit)) leave_aborted_job("rocshmem_global_exit");
  fatal_exit(status, "rocshmem_global_exit(%d) called; terminating every PE", status);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_dump_stats() { stats_dump(); }

ROCSHMEM_EMU_API void rocshmem::rocshmem_reset_stats() { stats_reset(); }
