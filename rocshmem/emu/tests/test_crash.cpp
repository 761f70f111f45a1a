// A PE that dies must not hang the job or leak shared memory.
// Usage: test_crash <path-to-rocshmem-emu-run> <N>. The same binary, started by the runner as
// "test_crash pe", plays the PEs: the last PE SIGKILLs itself before a barrier; the survivors wait
// in barrier_all (even ranks) or in int_wait_until for a flag the victim never sets (odd ranks).
// The driver checks that every survivor exits non-zero, in bounded time, with the emulator's
// dead-peer message, and that no /dev/shm object created during the run remains.
// A second run ("pe-before-init") kills the victim before it joins: the survivors' init must
// give up after ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT with an error, again leaving no /dev/shm object.
// Registered RUN_SERIAL, and objects in use by live processes are ignored, so that the /dev/shm
// before/after comparison does not blame this job for other jobs' objects.
#include "emu_process.hpp"
#include "emu_test.hpp"

#include <csignal>

using emu_process::contains;

namespace {

// Prefix of every POSIX shm object the emulator creates (see emu/shmem/src/bootstrap.cpp).
const char* const kShmPrefix = "rocshmem-emu-";
constexpr double kDetectionBoundS = 20;

int pe_main() {
  using namespace rocshmem;
  const int me = emu_test::init();
  const int npes = rocshmem_n_pes();
  auto* flag = static_cast<int*>(rocshmem_calloc(1, sizeof(int)));
  auto* data = rocshmem_malloc(1 << 20);  // make sure the heap has real pages to leak
  EMU_CHECK(flag && data, "rocshmem alloc failed");
  rocshmem_barrier_all();
  if (me == npes - 1) {
    fflush(stdout);
    raise(SIGKILL);
  }
  if (me % 2 == 0)
    rocshmem_barrier_all();
  else
    rocshmem_int_wait_until(flag, ROCSHMEM_CMP_EQ, 1);
  printf("UNEXPECTED: PE %d returned from a wait on a dead peer\n", me);
  return 0;
}

int pe_before_init_main() {
  const int rank = atoi(getenv("RANK") ? getenv("RANK") : "0");
  const int world = atoi(getenv("WORLD_SIZE") ? getenv("WORLD_SIZE") : "1");
  if (rank == world - 1) raise(SIGKILL);
  emu_test::init();  // cannot complete: the last PE never joins
  printf("UNEXPECTED: rocshmem_init returned without PE %d\n", world - 1);
  return 0;
}

int g_failures = 0;

void expect(bool ok, int n, const std::string& what) {
  if (!ok) {
    fprintf(stderr, "FAIL crash test (%d PEs): %s\n", n, what.c_str());
    ++g_failures;
  }
}

// Runs the job in the given PE mode; returns its result and reports /dev/shm objects it leaked.
emu_process::RunResult run_job(const std::string& runner, const std::string& self, int n, const char* mode) {
  auto before = emu_process::list_dir("/dev/shm", kShmPrefix);
  auto r = emu_process::run_capture({runner, "-n", std::to_string(n), "--keep-going", "--timeout", "60", "--",
                                     self, mode});
  auto after = emu_process::list_dir("/dev/shm", kShmPrefix);
  printf("--- %s ---\n%s", mode, r.output.c_str());
  // Our PEs are all gone now (the runner reaps everything), so a new object that no live process
  // uses is ours and leaked; one still in use belongs to another job running at the same time.
  for (const auto& name : after)
    if (!before.count(name) && !emu_process::shm_object_in_use(name))
      expect(false, n, std::string(mode) + ": shared memory object left behind: /dev/shm/" + name);
  return r;
}

void check_victim_crash_before_init(const std::string& runner, const std::string& self, int n) {
  setenv("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT", "2", 1);
  auto r = run_job(runner, self, n, "pe-before-init");
  unsetenv("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT");
  expect(r.seconds < 2 + kDetectionBoundS, n, "init gave up only after " + std::to_string(r.seconds) + " s");
  expect(!contains(r.output, "UNEXPECTED"), n, "rocshmem_init returned without all PEs");
  for (int pe = 0; pe < n - 1; ++pe) {
    expect(contains(r.output, "[PE " + std::to_string(pe) + "] rocSHMEM emulator: "), n,
          "no emulator error message from PE " + std::to_string(pe) + " after a failed init");
    expect(contains(r.output, "rocshmem-emu-run: PE " + std::to_string(pe) + " exited with status"), n,
          "PE " + std::to_string(pe) + " did not exit non-zero after a failed init");
  }
}

int driver_main(const std::string& runner, int n) {
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 2;
  self[len] = 0;
  auto r = run_job(runner, self, n, "pe");
  auto check = [n](bool ok, const std::string& what) { expect(ok, n, what); };
  const int victim = n - 1;
  check(r.exit_code != 0 && r.exit_code != 124, "runner status " + std::to_string(r.exit_code) +
                                                    " (expected the victim's or a survivor's failure)");
  check(r.seconds < kDetectionBoundS, "survivors needed " + std::to_string(r.seconds) + " s to notice");
  check(contains(r.output, "PE " + std::to_string(victim) + " was killed by signal 9"), "victim's death not reported");
  check(!contains(r.output, "UNEXPECTED"), "a survivor returned from its wait");
  // A survivor may notice another survivor's exit before the victim's, so each must report some
  // dead peer, and at least one must name the victim.
  check(contains(r.output, ": peer PE " + std::to_string(victim) + " "), "no survivor named the victim");
  for (int pe = 0; pe < victim; ++pe) {
    const std::string tag = "[PE " + std::to_string(pe) + "] rocSHMEM emulator: PE " + std::to_string(pe) + ": peer PE ";
    const size_t at = r.output.find(tag);
    check(at != std::string::npos, "no dead-peer message from PE " + std::to_string(pe));
    if (at != std::string::npos) {
      const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
      check(contains(line, "died"), "dead-peer message does not say 'died': " + line);
    }
    check(contains(r.output, "rocshmem-emu-run: PE " + std::to_string(pe) + " exited with status"),
          "survivor PE " + std::to_string(pe) + " did not exit non-zero");
  }
  check_victim_crash_before_init(runner, self, n);
  if (g_failures) return 1;
  printf("PASS crash cleanup (%d PEs, %.2f s)\n", n, r.seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "pe") return pe_main();
  if (argc == 2 && std::string(argv[1]) == "pe-before-init") return pe_before_init_main();
  if (argc != 3) {
    fprintf(stderr, "usage: %s <rocshmem-emu-run> <N>\n", argv[0]);
    return 2;
  }
  return driver_main(argv[1], atoi(argv[2]));
}
