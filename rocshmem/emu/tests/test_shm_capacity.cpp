// An undersized tmpfs (Docker's 64 MiB /dev/shm, here a 16 MiB tmpfs) must give a clear init
// error naming ROCSHMEM_HEAP_SIZE, the free space and the fix, never a SIGBUS later.
// Usage: test_shm_capacity <path-to-rocshmem-emu-run>. The test mounts its tmpfs in a private
// mount namespace (as root, or as a user through a user namespace), so nothing is visible
// outside and nothing outlives it; it exits 77 (skipped) when neither is allowed.
// The same binary, started as "test_shm_capacity pe", plays the PEs: each fills its whole heap.
#include "emu_process.hpp"
#include "emu_test.hpp"

#include <rocshmem_emu.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <cstring>

using emu_process::contains;

namespace {

int g_failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    fprintf(stderr, "FAIL shm capacity: %s\n", what.c_str());
    ++g_failures;
  }
}

int pe_main() {
  const int me = emu_test::init();
  const size_t bytes = rocshmem_emu_heap_size();
  auto* all = static_cast<unsigned char*>(rocshmem::rocshmem_malloc(bytes));
  EMU_CHECK(all, "malloc of the whole heap");
  memset(all, 0xA5, bytes);  // every page of this PE's heap now exists in the tmpfs
  rocshmem::rocshmem_barrier_all();
  printf("FILLED PE %d: %zu bytes\n", me, bytes);
  rocshmem::rocshmem_free(all);
  rocshmem::rocshmem_finalize();
  return 0;
}

bool write_file(const char* path, const std::string& text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

// A 16 MiB tmpfs at dir, in a mount namespace of our own. Returns how, or "" with *why.
std::string mount_small_tmpfs(const std::string& dir, std::string* why) {
  const uid_t uid = getuid();
  const gid_t gid = getgid();
  std::string how;
  if (unshare(CLONE_NEWNS) == 0) {
    how = "private mount namespace";
  } else if (unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0) {
    // Map ourselves to root of the new user namespace, which owns the new mount namespace.
    write_file("/proc/self/setgroups", "deny");
    if (!write_file("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n") ||
        !write_file("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n")) {
      *why = std::string("cannot map ids in a user namespace: ") + strerror(errno);
      return "";
    }
    how = "user + mount namespace";
  } else {
    *why = std::string("neither a mount namespace nor a user namespace is allowed here: ") + strerror(errno);
    return "";
  }
  // Mounts made here must not propagate back to the parent namespace.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      mount("tmpfs", dir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=0700") != 0) {
    *why = std::string("mounting a tmpfs failed: ") + strerror(errno);
    return "";
  }
  return how;
}

emu_process::RunResult run_job(const std::string& runner, const std::string& self, const std::string& heap,
                               bool reserve) {
  setenv("ROCSHMEM_HEAP_SIZE", heap.c_str(), 1);
  setenv("ROCSHMEM_EMU_HEAP_RESERVE", reserve ? "1" : "0", 1);
  auto r = emu_process::run_capture({runner, "-n", "2", "--timeout", "30", "--", self, "pe"});
  printf("--- heap %s%s: status %d, %.2f s ---\n%s", heap.c_str(), reserve ? " (reserved)" : "", r.exit_code, r.seconds,
         r.output.c_str());
  expect(r.exit_code != 128 + SIGBUS && !contains(r.output, "signal 7"), "heap " + heap + ": a PE died of SIGBUS");
  return r;
}

void expect_refused(const emu_process::RunResult& r, const std::string& heap, const std::string& reason) {
  expect(r.exit_code != 0 && r.seconds < 10, "heap " + heap + ": init should fail fast, status " +
                                                 std::to_string(r.exit_code));
  expect(!contains(r.output, "FILLED"), "heap " + heap + ": a PE filled a heap that cannot fit");
  for (const char* needed : {reason.c_str(), "ROCSHMEM_HEAP_SIZE=", "free", "--shm-size", "ROCSHMEM_EMU_SHM_DIR"})
    expect(contains(r.output, needed), "heap " + heap + ": the init error does not mention '" + needed + "'");
}

void expect_filled(const emu_process::RunResult& r, const std::string& heap) {
  expect(r.exit_code == 0, "heap " + heap + " should fit: status " + std::to_string(r.exit_code));
  expect(contains(r.output, "FILLED PE 0") && contains(r.output, "FILLED PE 1"), "heap " + heap + ": heaps not filled");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "pe") return pe_main();
  if (argc != 2) {
    fprintf(stderr, "usage: %s <rocshmem-emu-run>\n", argv[0]);
    return 2;
  }
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 2;
  self[len] = 0;
  char dir_template[] = "/tmp/emu-small-shm.XXXXXX";
  if (!mkdtemp(dir_template)) return 2;
  const std::string dir = dir_template;
  std::string why;
  const std::string how = mount_small_tmpfs(dir, &why);
  if (how.empty()) {
    printf("SKIP: cannot mount a small tmpfs (%s)\n", why.c_str());
    rmdir(dir.c_str());
    return 77;
  }
  printf("16 MiB tmpfs at %s (%s)\n", dir.c_str(), how.c_str());
  setenv("ROCSHMEM_EMU_SHM_DIR", dir.c_str(), 1);

  // Docker's case: the default 1 GiB heap on a small /dev/shm.
  expect_refused(run_job(argv[1], self, "1G", false), "1G", "do not fit in " + dir);
  // Just too big: 2 x 9 MiB. Filling these heaps would hit SIGBUS; init refuses instead.
  expect_refused(run_job(argv[1], self, "9M", false), "9M", "do not fit in " + dir);
  // Fits: 2 x 7 MiB, every page written.
  expect_filled(run_job(argv[1], self, "7M", false), "7M");
  // ROCSHMEM_EMU_HEAP_RESERVE=1 takes the memory at init: the second heap cannot be reserved.
  expect_refused(run_job(argv[1], self, "9M", true), "9M reserved", "cannot reserve this PE's heap");
  expect_filled(run_job(argv[1], self, "7M", true), "7M reserved");
  expect(emu_process::list_dir(dir.c_str(), "").empty(), "objects left in the small tmpfs");

  umount2(dir.c_str(), MNT_DETACH);
  rmdir(dir.c_str());
  if (g_failures) return 1;
  printf("PASS small tmpfs: clear init errors, no SIGBUS\n");
  return 0;
}
