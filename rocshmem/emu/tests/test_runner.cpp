// Black-box test of rocshmem-emu-run. Usage: test_runner <path-to-rocshmem-emu-run> <N>
// The same binary, started by the runner as "test_runner child <mode>", plays the PEs.
// Checks: environment and output prefixes, a failing PE's status is the runner's status, a
// signal gives 128+sig, timeout gives 124 (with SIGKILL escalation for a PE ignoring SIGTERM),
// and no child or grandchild (not even one that left the process group) survives the runner.
#include "emu_process.hpp"

#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

using emu_process::contains;

namespace {

int g_checks_failed = 0;

#define CHECK(cond, msg)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #cond, std::string(msg).c_str()); \
      ++g_checks_failed;                                                              \
    }                                                                                 \
  } while (0)

std::string env_or_empty(const char* name) {
  const char* v = getenv(name);
  return v ? v : "";
}

void write_pid_file(const std::string& dir, const std::string& name, pid_t pid) {
  std::ofstream(dir + "/" + name) << pid << "\n";
}

int count_files(const std::string& dir) { return (int)emu_process::list_dir(dir.c_str(), "pid.").size(); }

// ---- child side -------------------------------------------------------------------------------

int child_main(const std::string& mode) {
  const int rank = atoi(env_or_empty("RANK").c_str());
  const int world = atoi(env_or_empty("WORLD_SIZE").c_str());
  const std::string dir = env_or_empty("EMU_RUNNER_TEST_DIR");
  if (mode == "env") {
    printf("ENV rank=%s world=%s local_rank=%s local_world=%s job=%s\n", env_or_empty("RANK").c_str(),
           env_or_empty("WORLD_SIZE").c_str(), env_or_empty("LOCAL_RANK").c_str(),
           env_or_empty("LOCAL_WORLD_SIZE").c_str(), env_or_empty("ROCSHMEM_EMU_JOB_ID").c_str());
    printf("second line of %d\nno newline at end of %d", rank, rank);
    fflush(stdout);
    fprintf(stderr, "stderr line of %d\n", rank);
    return 0;
  }
  // Modes that must be stopped by the runner: record our pid and a grandchild's.
  write_pid_file(dir, "pid.child." + std::to_string(rank), getpid());
  pid_t grandchild = fork();
  if (grandchild == 0) {
    if (rank == 0) setsid();  // leaves the job's process group: only the subreaper scan finds it
    for (;;) pause();
  }
  write_pid_file(dir, "pid.grandchild." + std::to_string(rank), grandchild);
  if (mode == "timeout" && rank == 0) signal(SIGTERM, SIG_IGN);  // forces the SIGKILL escalation
  if ((mode == "stopped_first" || mode == "stopped_alone") && (rank == 0 || rank == world - 1)) {
    for (int i = 0; i < 500 && count_files(dir) < 2 * world; ++i) usleep(10000);
    // PE 0 plays one the emulator stopped (71) before the PE that failed (3) exits.
    if (rank == 0) return 71;
    if (mode == "stopped_first") {
      usleep(300000);
      return 3;
    }
  }
  const bool i_fail = rank == world - 1 && (mode == "fail" || mode == "signal");
  if (i_fail) {
    // Fail only once every PE has recorded its pids, so the parent knows them all.
    for (int i = 0; i < 500 && count_files(dir) < 2 * world; ++i) usleep(10000);
    if (mode == "fail") return 3;
    raise(SIGKILL);
  }
  sleep(30);
  return 0;
}

// ---- parent side ------------------------------------------------------------------------------

struct Fixture {
  std::string runner, self, dir;
  int n;
};

std::vector<pid_t> recorded_pids(const std::string& dir) {
  std::vector<pid_t> pids;
  for (const auto& name : emu_process::list_dir(dir.c_str(), "pid.")) {
    std::ifstream in(dir + "/" + name);
    long pid = 0;
    if (in >> pid && pid > 0) pids.push_back((pid_t)pid);
    unlink((dir + "/" + name).c_str());
  }
  return pids;
}

void check_all_gone(const Fixture& f, const char* mode) {
  std::vector<pid_t> pids = recorded_pids(f.dir);
  CHECK((int)pids.size() == 2 * f.n, std::string(mode) + ": expected a child and a grandchild pid per PE, got " +
                                         std::to_string(pids.size()));
  for (pid_t pid : pids) {
    CHECK(emu_process::pid_gone(pid), std::string(mode) + ": process " + std::to_string(pid) + " outlived the runner");
    if (!emu_process::pid_gone(pid)) kill(pid, SIGKILL);  // do not leak it into the next test
  }
}

emu_process::RunResult run(const Fixture& f, std::vector<std::string> options, const std::string& mode) {
  std::vector<std::string> argv = {f.runner, "-n", std::to_string(f.n)};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {"--", f.self, "child", mode});
  return emu_process::run_capture(argv);
}

void test_env_and_prefixes(const Fixture& f) {
  auto r1 = run(f, {"--timeout", "20"}, "env");
  auto r2 = run(f, {"--timeout", "20"}, "env");
  CHECK(r1.exit_code == 0, "env run exit code " + std::to_string(r1.exit_code) + "\n" + r1.output);
  std::map<int, std::string> job_of_rank;
  std::istringstream lines(r1.output);
  std::string line;
  while (std::getline(lines, line)) {
    int prefix_rank, rank, world, lrank, lworld;
    char job[128] = {};
    if (sscanf(line.c_str(), "[PE %d] ENV rank=%d world=%d local_rank=%d local_world=%d job=%127s", &prefix_rank,
               &rank, &world, &lrank, &lworld, job) == 6) {
      CHECK(prefix_rank == rank, "prefix does not match RANK: " + line);
      CHECK(world == f.n && lworld == f.n, "WORLD_SIZE/LOCAL_WORLD_SIZE: " + line);
      CHECK(lrank == rank, "LOCAL_RANK: " + line);
      CHECK(strlen(job) >= 8, "job id too short: " + line);
      job_of_rank[rank] = job;
    }
  }
  CHECK((int)job_of_rank.size() == f.n, "expected one ENV line per PE:\n" + r1.output);
  for (auto& [rank, job] : job_of_rank) CHECK(job == job_of_rank.begin()->second, "PEs disagree on the job id");
  for (int r = 0; r < f.n; ++r) {
    std::string pe = "[PE " + std::to_string(r) + "] ";
    CHECK(contains(r1.output, pe + "second line of " + std::to_string(r) + "\n"), "second line of PE " + std::to_string(r));
    CHECK(contains(r1.output, pe + "no newline at end of " + std::to_string(r) + "\n"), "unterminated last line");
    CHECK(contains(r1.output, pe + "stderr line of " + std::to_string(r) + "\n"), "stderr line");
  }
  CHECK(!job_of_rank.empty() && !contains(r2.output, "job=" + job_of_rank.begin()->second),
        "two runs got the same job id");
}

void test_failing_child(const Fixture& f) {
  auto r = run(f, {"--timeout", "20", "--grace", "1"}, "fail");
  CHECK(r.exit_code == 3, "runner status for a PE exiting 3: " + std::to_string(r.exit_code) + "\n" + r.output);
  CHECK(r.seconds < 10, "runner took " + std::to_string(r.seconds) + " s to stop the others");
  CHECK(contains(r.output, "PE " + std::to_string(f.n - 1) + " exited with status 3"), "failure message:\n" + r.output);
  check_all_gone(f, "fail");
}

// A PE stopped because another failed (71) exits first: the runner waits for the one that failed and
// reports it; with none, the 71 is the status after the root-cause wait (1 s).
void test_stopped_pe_first(const Fixture& f) {
  auto r = run(f, {"--timeout", "20", "--grace", "1"}, "stopped_first");
  CHECK(r.exit_code == 3, "runner status when a 71 precedes the failure: " + std::to_string(r.exit_code) + "\n" +
                              r.output);
  CHECK(contains(r.output, "PE " + std::to_string(f.n - 1) + " exited with status 3"), "failure message:\n" + r.output);
  check_all_gone(f, "stopped_first");
  auto alone = run(f, {"--timeout", "20", "--grace", "1"}, "stopped_alone");
  CHECK(alone.exit_code == 71, "runner status for a lone 71: " + std::to_string(alone.exit_code) + "\n" + alone.output);
  CHECK(alone.seconds >= 1 && alone.seconds < 10, "lone 71 run took " + std::to_string(alone.seconds) + " s");
  check_all_gone(f, "stopped_alone");
}

void test_signalled_child(const Fixture& f) {
  auto r = run(f, {"--timeout", "20", "--grace", "1"}, "signal");
  CHECK(r.exit_code == 128 + SIGKILL, "runner status for a SIGKILLed PE: " + std::to_string(r.exit_code) + "\n" + r.output);
  check_all_gone(f, "signal");
}

void test_timeout(const Fixture& f) {
  auto r = run(f, {"--timeout", "1", "--grace", "1"}, "timeout");
  CHECK(r.exit_code == 124, "runner status on timeout: " + std::to_string(r.exit_code) + "\n" + r.output);
  CHECK(r.seconds >= 1 && r.seconds < 8, "timeout run took " + std::to_string(r.seconds) + " s");
  check_all_gone(f, "timeout");
}

void test_bad_usage(const Fixture& f) {
  auto r = emu_process::run_capture({f.runner, "-n", "0", "--", "/bin/true"});
  CHECK(r.exit_code == 2, "usage error status " + std::to_string(r.exit_code));
  // Garbage after a number, non-finite and negative durations are usage errors, not defaults.
  const std::vector<std::vector<std::string>> bad = {
      {"-n", "2x"}, {"-n", "2", "--timeout", "nan"}, {"-n", "2", "--timeout", "inf"},
      {"-n", "2", "--timeout", "-1"}, {"-n", "2", "--timeout", "5s"}, {"-n", "2", "--grace", "nan"}};
  for (const auto& options : bad) {
    std::vector<std::string> argv = {f.runner};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), {"--", "/bin/true"});
    auto b = emu_process::run_capture(argv);
    std::string shown;
    for (const auto& o : options) shown += o + " ";
    CHECK(b.exit_code == 2 && contains(b.output, "usage:"), "runner accepted '" + shown + "': status " +
                                                                std::to_string(b.exit_code) + "\n" + b.output);
  }
  auto missing = emu_process::run_capture({f.runner, "-n", "2", "--", "/nonexistent/program"});
  CHECK(missing.exit_code == 127, "status for a program that cannot be executed: " + std::to_string(missing.exit_code));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "child") return child_main(argv[2]);
  if (argc != 3) {
    fprintf(stderr, "usage: %s <rocshmem-emu-run> <N>\n", argv[0]);
    return 2;
  }
  char dir_template[] = "/tmp/emu-runner-test.XXXXXX";
  Fixture f{argv[1], "/proc/self/exe", mkdtemp(dir_template), atoi(argv[2])};
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len > 0) f.self.assign(self, (size_t)len);
  setenv("EMU_RUNNER_TEST_DIR", f.dir.c_str(), 1);

  test_env_and_prefixes(f);
  test_failing_child(f);
  test_stopped_pe_first(f);
  test_signalled_child(f);
  test_timeout(f);
  test_bad_usage(f);

  rmdir(f.dir.c_str());
  if (g_checks_failed) {
    fprintf(stderr, "%d runner check(s) failed\n", g_checks_failed);
    return 1;
  }
  printf("PASS runner (%d PEs)\n", f.n);
  return 0;
}
