// Death at any moment of init leaks nothing and hangs nothing.
// Usage: test_init_faults <path-to-rocshmem-emu-run>. The same binary, started as
// "test_init_faults pe", plays the PEs (init, then a barrier that must never be reached).
//  1. ROCSHMEM_EMU_TEST_FAULT makes PE 0 or PE 1 (of 2) die or fail at each init phase (start,
//     control, heap, joined, mapped) in each way (SIGKILL, SIGTERM, _exit, init error). The runner
//     runs with --keep-going, so the surviving PE itself must notice, clean up and exit non-zero.
//  2. A job stopped by the runner's --timeout inside init: the runner sweeps what its PEs left.
//  3. An object left by a dead process is swept by the next init.
//  4. A control object with the job's key that cannot be used (another user's) does not block
//     init forever: init ends at its deadline with a message naming it. A live job with the same
//     key makes PE 0 refuse at once.
// Every job uses a private ROCSHMEM_EMU_SHM_DIR, which must be empty afterwards; /dev/shm must
// not gain any emulator object.
#include "emu_process.hpp"
#include "emu_test.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cstring>

using emu_process::contains;

namespace {

constexpr double kBoundS = 10;
int g_failures = 0;
std::string g_dir;  // private ROCSHMEM_EMU_SHM_DIR

void expect(bool ok, const std::string& what) {
  if (!ok) {
    fprintf(stderr, "FAIL init faults: %s\n", what.c_str());
    ++g_failures;
  }
}

int pe_main() {
  const int me = emu_test::init();
  printf("UNEXPECTED: PE %d completed init\n", me);
  rocshmem::rocshmem_barrier_all();
  rocshmem::rocshmem_finalize();
  return 0;
}

std::string shm_entries(const std::string& dir) {
  std::string all;
  for (const auto& name : emu_process::list_dir(dir.c_str(), "")) all += " " + name;
  return all;
}

// The emulator's object names start with the pid namespace: "rocshmem-emu-<ns>-<pid>-...".
std::string object_prefix(pid_t pid) {
  struct stat ns;
  std::string pidns = stat("/proc/self/ns/pid", &ns) == 0 ? std::to_string(ns.st_ino) : "0";
  return "rocshmem-emu-" + pidns + "-" + std::to_string(pid) + "-";
}

// FNV-1a of the env job key, as the emulator derives the control key (lifecycle.cpp).
std::string job_tag(const std::string& job_id, int n) {
  std::string key = "job:" + job_id + "|n=" + std::to_string(n) + "|uid=" + std::to_string(getuid());
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char hex[17];
  for (int i = 0; i < 8; i++) snprintf(hex + 2 * i, 3, "%02x", unsigned((h >> (8 * i)) & 0xff));
  return std::string("j") + hex;
}

void create_file(const std::string& name, mode_t mode) {
  int fd = open((g_dir + "/" + name).c_str(), O_RDWR | O_CREAT | O_EXCL, mode);
  if (fd >= 0) {
    if (ftruncate(fd, 1 << 20) != 0) perror("ftruncate");
    close(fd);
  }
}

void fault_matrix(const std::string& runner, const std::string& self) {
  setenv("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT", "1", 1);  // PE 0 dying before it publishes the job
  for (const char* phase : {"start", "control", "heap", "joined", "mapped"}) {
    for (const char* action : {"kill", "term", "exit", "fail"}) {
      for (int victim : {0, 1}) {
        std::string fault = std::to_string(victim) + ":" + phase + ":" + action;
        setenv("ROCSHMEM_EMU_TEST_FAULT", fault.c_str(), 1);
        auto r = emu_process::run_capture({runner, "-n", "2", "--keep-going", "--timeout", "30", "--", self, "pe"});
        std::string what = "fault " + fault + " (" + std::to_string(r.seconds) + " s, status " +
                           std::to_string(r.exit_code) + ")";
        expect(r.exit_code != 0 && r.exit_code != 124, what + ": job did not fail as it should\n" + r.output);
        expect(r.seconds < kBoundS, what + ": too slow\n" + r.output);
        expect(!contains(r.output, "UNEXPECTED"), what + ": a PE completed init\n" + r.output);
        // The survivor cleaned up itself: the runner found nothing left to sweep.
        expect(!contains(r.output, "rocshmem-emu-run: removed"), what + ": the PEs left objects for the runner\n" + r.output);
        expect(shm_entries(g_dir).empty(), what + ": left in " + g_dir + ":" + shm_entries(g_dir));
      }
    }
  }
  unsetenv("ROCSHMEM_EMU_TEST_FAULT");
  printf("PASS fault matrix: 5 init phases x kill/term/exit/fail x PE 0/1\n");
}

void runner_sweeps_a_job_stopped_in_init(const std::string& runner, const std::string& self) {
  // PE 1 never starts its init ("pe-late" sleeps); PE 0 waits in init until the runner's timeout.
  setenv("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT", "60", 1);
  auto r = emu_process::run_capture({runner, "-n", "2", "--timeout", "1", "--grace", "0", "--", self, "pe-late"});
  expect(r.exit_code == 124, "timeout in init: status " + std::to_string(r.exit_code) + "\n" + r.output);
  expect(contains(r.output, "rocshmem-emu-run: removed 2 shared-memory object(s)"),
         "the runner did not sweep PE 0's control segment and heap\n" + r.output);
  expect(shm_entries(g_dir).empty(), "timeout in init: left in " + g_dir + ":" + shm_entries(g_dir));
  printf("PASS runner sweeps a job stopped in init\n");
}

void init_sweeps_dead_creators(const std::string& runner, const std::string& self) {
  pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);
  const std::string stale = object_prefix(dead) + "h-00112233445566778899aabbccddeeff";
  create_file(stale, 0600);
  setenv("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT", "10", 1);
  auto r = emu_process::run_capture({runner, "-n", "2", "--timeout", "30", "--", self, "pe-ok"});
  expect(r.exit_code == 0, "job after a stale object: status " + std::to_string(r.exit_code) + "\n" + r.output);
  expect(shm_entries(g_dir).empty(), "the stale object of dead pid " + std::to_string(dead) + " survived init:" +
                                         shm_entries(g_dir));
  printf("PASS init sweeps objects of dead creators\n");
}

void unusable_control_objects(const std::string& self) {
  const std::string job = "faults-" + std::to_string(getpid());
  const std::string tag = job_tag(job, 2);
  setenv("ROCSHMEM_EMU_JOB_ID", job.c_str(), 1);
  setenv("WORLD_SIZE", "2", 1);
  setenv("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT", "1", 1);

  // Someone else's object under our key (a live pid, the wrong owner): init must not wait forever.
  const std::string foreign = object_prefix(getpid()) + "c-" + tag + ".0011223344556677";
  create_file(foreign, 0);
  if (getuid() == 0 && chown((g_dir + "/" + foreign).c_str(), 65534, 65534) != 0) perror("chown");
  setenv("RANK", "1", 1);
  auto r = emu_process::run_capture({self, "pe"}, 30);
  expect(r.exit_code != 0 && r.seconds < kBoundS, "rank 1 with an unusable control object: status " +
                                                      std::to_string(r.exit_code) + ", " + std::to_string(r.seconds) + " s\n" + r.output);
  expect(contains(r.output, "timed out after 1 s waiting for PE 0") && contains(r.output, "found but could not use") &&
             contains(r.output, foreign),
         "rank 1's error does not name the unusable control object\n" + r.output);
  unlink((g_dir + "/" + foreign).c_str());

  // A live job with the same key is starting: PE 0 refuses at once instead of guessing.
  const std::string live = object_prefix(getpid()) + "c-" + tag + ".8899aabbccddeeff";
  create_file(live, 0600);
  setenv("RANK", "0", 1);
  r = emu_process::run_capture({self, "pe"}, 30);
  expect(r.exit_code != 0 && r.seconds < kBoundS, "rank 0 next to a live job with its key: status " +
                                                      std::to_string(r.exit_code) + "\n" + r.output);
  expect(contains(r.output, "another job with the same ROCSHMEM_EMU_JOB_ID is starting"),
         "rank 0's error does not explain the clash\n" + r.output);
  unlink((g_dir + "/" + live).c_str());
  for (const char* v : {"ROCSHMEM_EMU_JOB_ID", "WORLD_SIZE", "RANK"}) unsetenv(v);
  expect(shm_entries(g_dir).empty(), "unusable control: left in " + g_dir + ":" + shm_entries(g_dir));
  printf("PASS unusable or clashing control objects end init with a clear error\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "pe") return pe_main();
  if (argc == 2 && std::string(argv[1]) == "pe-ok") {
    emu_test::init();
    rocshmem::rocshmem_barrier_all();
    rocshmem::rocshmem_finalize();
    return 0;
  }
  if (argc == 2 && std::string(argv[1]) == "pe-late") {
    if (atoi(getenv("RANK") ? getenv("RANK") : "0") == 1) sleep(60);
    return pe_main();
  }
  if (argc != 2) {
    fprintf(stderr, "usage: %s <rocshmem-emu-run>\n", argv[0]);
    return 2;
  }
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 2;
  self[len] = 0;
  char dir_template[] = "/dev/shm/emu-init-faults.XXXXXX";
  if (!mkdtemp(dir_template)) {
    perror("mkdtemp");
    return 2;
  }
  g_dir = dir_template;
  setenv("ROCSHMEM_EMU_SHM_DIR", g_dir.c_str(), 1);
  setenv("ROCSHMEM_HEAP_SIZE", "1M", 1);
  const auto before = emu_process::list_dir("/dev/shm", "rocshmem-emu-");

  fault_matrix(argv[1], self);
  runner_sweeps_a_job_stopped_in_init(argv[1], self);
  init_sweeps_dead_creators(argv[1], self);
  unusable_control_objects(self);

  for (const auto& name : emu_process::list_dir("/dev/shm", "rocshmem-emu-"))
    if (!before.count(name) && !emu_process::shm_object_in_use(name))
      expect(false, "new object in /dev/shm: " + name);
  for (const auto& name : emu_process::list_dir(g_dir.c_str(), "")) unlink((g_dir + "/" + name).c_str());
  rmdir(g_dir.c_str());
  if (g_failures) return 1;
  printf("PASS init faults\n");
  return 0;
}
