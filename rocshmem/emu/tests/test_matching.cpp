// Collective matching, the emulator's debugging aid: PEs of a team that enter different
// collectives (or the same one with different arguments) end the job on every PE with one
// message naming both sides, and no PE returns from the collective.
// Usage: test_matching <path-to-rocshmem-emu-run> <N>. The same binary, started by the runner as
// "test_matching pe <scenario>", plays the PEs. PE 0 always enters first (the others wait for its
// "entered" file), so the expected message is exact.
#include "emu_process.hpp"
#include "emu_test.hpp"

#include <sys/stat.h>

#include <cstring>
#include <fstream>

using emu_process::contains;

namespace {

constexpr double kBoundS = 10;  // the job must end this long after the mismatch at most

std::string env(const char* name) {
  const char* v = getenv(name);
  return v ? v : "";
}

// PE 0 records that it is about to block in its collective; the others start after that.
void pe0_entering() {
  std::ofstream(env("MATCH_TEST_DIR") + "/entered") << "1\n";
}
void wait_for_pe0() {
  struct stat sb;
  for (int i = 0; i < 1000 && stat((env("MATCH_TEST_DIR") + "/entered").c_str(), &sb) != 0; ++i) usleep(5000);
  usleep(100000);  // and let it arrive
}

int pe_main(const std::string& scenario) {
  using namespace rocshmem;
  const int me = emu_test::init();
  const int npes = rocshmem_n_pes();
  auto* a = static_cast<int*>(rocshmem_calloc(64, sizeof(int)));
  auto* b = static_cast<int*>(rocshmem_calloc(64, sizeof(int)));
  rocshmem_team_t evens = ROCSHMEM_TEAM_INVALID, copy_of_world = ROCSHMEM_TEAM_INVALID,
                  first_two = ROCSHMEM_TEAM_INVALID;
  if (scenario == "reduce-vs-sync-on-team")
    rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, nullptr, 0, &evens);
  if (scenario == "barrier-on-a-copy-of-world")
    rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 1, npes, nullptr, 0, &copy_of_world);
  if (scenario == "barrier-on-a-pair-vs-world")
    rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 1, 2, nullptr, 0, &first_two);
  rocshmem_barrier_all();
  if (me == 0) pe0_entering(); else wait_for_pe0();
  if (scenario == "finalize-vs-barrier") {
    // A PE leaving (finalize) while the others still synchronise: the mismatch must end the job.
    if (me == 1) rocshmem_finalize(); else rocshmem_barrier_all();
  } else if (scenario == "free-different-blocks") {
    rocshmem_free(me == 1 ? b : a);
  } else if (scenario == "malloc-different-sizes") {
    rocshmem_malloc(me == 1 ? 128 : 64);
  } else if (scenario == "reduce-vs-sync-on-team") {
    if (me == 0) rocshmem_ctx_int_sum_reduce(ROCSHMEM_CTX_DEFAULT, evens, a, b, 4);
    else if (me % 2 == 0) rocshmem_team_sync(evens);
    rocshmem_barrier_all();  // odd PEs wait here for the even ones, which never come
  } else if (scenario == "barrier-on-a-copy-of-world") {
    // Same members as WORLD, but another team: matching by members alone let this pass.
    rocshmem_barrier(me == 0 ? copy_of_world : ROCSHMEM_TEAM_WORLD);
  } else if (scenario == "barrier-on-a-pair-vs-world") {
    // PE 0 waits for PE 1 on {0,1}; PE 1 waits for PE 0 on WORLD: different slots, a cross wait.
    if (me == 0) rocshmem_barrier(first_two); else rocshmem_barrier_all();
  }
  printf("UNEXPECTED: PE %d returned from a mismatched collective\n", me);
  return 0;
}

int g_failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    fprintf(stderr, "FAIL matching test: %s\n", what.c_str());
    ++g_failures;
  }
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

void run_scenario(const std::string& runner, const std::string& self, int n, const std::string& scenario,
                  const std::string& message) {
  char dir_template[] = "/tmp/emu-matching.XXXXXX";
  std::string dir = mkdtemp(dir_template);
  setenv("MATCH_TEST_DIR", dir.c_str(), 1);
  auto r = emu_process::run_capture({runner, "-n", std::to_string(n), "--timeout", "60", "--", self, "pe", scenario});
  unlink((dir + "/entered").c_str());
  rmdir(dir.c_str());
  printf("--- %s (%d PEs, %.2f s, status %d) ---\n%s", scenario.c_str(), n, r.seconds, r.exit_code, r.output.c_str());
  expect(r.exit_code != 0 && r.exit_code != 124, scenario + ": job status " + std::to_string(r.exit_code));
  expect(r.seconds < kBoundS, scenario + ": took " + std::to_string(r.seconds) + " s");
  expect(!contains(r.output, "UNEXPECTED"), scenario + ": a PE returned from a mismatched collective");
  expect(contains(r.output, message), scenario + ": no message containing '" + message + "'");
  // One message names both sides; the other PEs only say that the job was ended.
  expect(occurrences(r.output, "collective mismatch") - occurrences(r.output, "for a collective mismatch") == 1,
         scenario + ": expected exactly one mismatch message");
}

int driver_main(const std::string& runner, int n) {
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 2;
  self[len] = 0;
  // Sequence numbers count every collective of the team: calloc, calloc, barrier_all -> #4.
  run_scenario(runner, self, n, "finalize-vs-barrier",
               "PE 1 entered rocshmem_finalize (#4) while PE 0 waits in rocshmem_barrier_all (#4)");
  run_scenario(runner, self, n, "free-different-blocks",
               "PE 1 entered rocshmem_free (#4, offset 256) while PE 0 waits in rocshmem_free (#4, offset 0)");
  run_scenario(runner, self, n, "malloc-different-sizes",
               "PE 1 entered rocshmem_malloc (#4, size 128) while PE 0 waits in rocshmem_malloc (#4, size 64)");
  if (n >= 4)
    run_scenario(runner, self, n, "reduce-vs-sync-on-team",
                 "collective mismatch on the team of world PEs {0,2}: PE 2 entered rocshmem_team_sync (#1) while "
                 "PE 0 waits in rocshmem_ctx_int_sum_reduce (#1)");
  // The copy has its own barrier: PE 0 waits there (its #1) for PEs that wait on WORLD's (split #3,
  // barrier_all #4, barrier #5) for PE 0, a cross wait.
  run_scenario(runner, self, n, "barrier-on-a-copy-of-world",
               "collective mismatch: PE 0 waits in rocshmem_barrier (#1) on split 1 of ROCSHMEM_TEAM_WORLD (world "
               "PEs {0,1");
  // The pair's first collective is #1; WORLD's barrier_all after calloc, calloc, split, barrier_all is #5.
  if (n >= 3)
    run_scenario(runner, self, n, "barrier-on-a-pair-vs-world",
                 "collective mismatch: PE 0 waits in rocshmem_barrier (#1) on split 1 of ROCSHMEM_TEAM_WORLD (world "
                 "PEs {0,1}) and PE 1 waits in rocshmem_barrier_all (#5) on ROCSHMEM_TEAM_WORLD (world PEs {0,1,2");
  if (g_failures) return 1;
  printf("PASS collective matching (%d PEs)\n", n);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "pe") return pe_main(argv[2]);
  if (argc != 3) {
    fprintf(stderr, "usage: %s <rocshmem-emu-run> <N>\n", argv[0]);
    return 2;
  }
  return driver_main(argv[1], atoi(argv[2]));
}
