// The real library's limits and settings, enforced with the emulator's messages:
// ROCSHMEM_MAX_NUM_HOST_CONTEXTS (default 1, the default context included), ROCSHMEM_MAX_NUM_TEAMS
// (default 40: 38 user teams), heap unit warnings, invalid or double free, validated settings
// (allocator type, timeouts, deprecated names, debug level) and ROCSHMEM_EMU_PROFILE=ipc-uid.
// Usage: test_limits <path-to-rocshmem-emu-run>. The same binary, started by the runner as
// "test_limits pe <scenario>", plays the PEs.
#include "emu_process.hpp"
#include "emu_test.hpp"

#include <map>

using emu_process::contains;

namespace {

int pe_main(const std::string& scenario) {
  using namespace rocshmem;
  const int me = emu_test::init();
  if (scenario == "host-contexts") {
    rocshmem_ctx_t ctx{};
    EMU_CHECK(rocshmem_ctx_create(0, &ctx) != 0, "past ROCSHMEM_MAX_NUM_HOST_CONTEXTS ctx_create fails");
    EMU_CHECK(ctx.ctx_opaque == nullptr, "and leaves no context");
  } else if (scenario == "host-contexts-raised") {
    rocshmem_ctx_t ctx{};
    EMU_CHECK_EQ(rocshmem_ctx_create(0, &ctx), 0, "ROCSHMEM_MAX_NUM_HOST_CONTEXTS=2 allows one user context");
    rocshmem_ctx_t second{};
    EMU_CHECK(rocshmem_ctx_create(0, &second) != 0, "but not a second one");
    rocshmem_ctx_destroy(ctx);
  } else if (scenario == "teams") {
    std::vector<rocshmem_team_t> teams;
    for (int i = 0; i < 38; i++) {
      rocshmem_team_t t = ROCSHMEM_TEAM_INVALID;
      EMU_CHECK_EQ(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 1, rocshmem_n_pes(), nullptr, 0, &t), 0,
                   "user team " + std::to_string(i + 1) + " of 38");
      teams.push_back(t);
    }
    rocshmem_team_t extra = ROCSHMEM_TEAM_WORLD;
    EMU_CHECK_EQ(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 1, rocshmem_n_pes(), nullptr, 0, &extra), -1,
                 "the 39th user team");
    EMU_CHECK(extra == ROCSHMEM_TEAM_INVALID, "the 39th user team is INVALID");
    rocshmem_team_destroy(teams.back());
    teams.pop_back();
    EMU_CHECK_EQ(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 1, rocshmem_n_pes(), nullptr, 0, &extra), 0,
                 "a destroyed team frees its place");
    for (rocshmem_team_t t : teams) rocshmem_team_destroy(t);
    rocshmem_team_destroy(extra);
  } else if (scenario == "failing-pe") {
    rocshmem_barrier_all();
    if (me == 1) exit(3);  // a failed test: the delivery seed must be printed
  } else if (scenario == "tiny-heap") {
    EMU_CHECK_EQ(rocshmem_malloc(1), (void*)nullptr, "a 1-byte heap has no room for a 128-byte block");
  } else if (scenario == "double-free") {
    void* p = rocshmem_malloc(64);
    rocshmem_free(p);
    rocshmem_free(p);
    printf("UNEXPECTED: PE %d survived a double free\n", me);
  } else if (scenario == "ipc-uid") {
    auto* v = static_cast<long*>(rocshmem_calloc(2, sizeof(long)));
    long one = 1;
    if (me == 0) rocshmem_putmem(v, &one, sizeof one, 1);  // putmem works on IPC without MPI...
    rocshmem_barrier_all();  // ...but this TCP-style barrier completes no RMA
    if (me == 1) {
      EMU_CHECK_EQ(v[0], 0L, "ipc-uid: the host barrier_all did not complete PE 0's put");
      rocshmem_long_atomic_fetch_add(&v[1], 1, 0);  // long fetch_add works there
    } else if (me == 0) {
      while (!rocshmem_long_test(&v[1], ROCSHMEM_CMP_EQ, 1L)) {
      }
      rocshmem_quiet();  // quiet does complete it
    }
    rocshmem_barrier_all();
    rocshmem_quiet();
    rocshmem_barrier_all();
    if (me == 1) EMU_CHECK_EQ(v[0], 1L, "ipc-uid: quiet completed the put");
    rocshmem_barrier_all();
    if (me == 0) rocshmem_long_p(v, 5, 1);  // aborts there
    rocshmem_barrier_all();
    printf("UNEXPECTED: PE %d passed rocshmem_long_p under ipc-uid\n", me);
  }
  rocshmem_finalize();
  printf("PE %d finished\n", me);
  return 0;
}

int g_failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    fprintf(stderr, "FAIL limits test: %s\n", what.c_str());
    ++g_failures;
  }
}

// Runs a scenario on 2 PEs with extra environment; checks the status and that each text appears.
void run(const std::string& runner, const std::string& self, const std::string& scenario,
         const std::map<std::string, std::string>& env, int status, const std::vector<std::string>& texts) {
  for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
  auto r = emu_process::run_capture({runner, "-n", "2", "--timeout", "60", "--", self, "pe", scenario});
  for (const auto& kv : env) unsetenv(kv.first.c_str());
  printf("--- %s (status %d, %.2f s) ---\n%s", scenario.c_str(), r.exit_code, r.seconds, r.output.c_str());
  expect(status == 0 ? r.exit_code == 0 : r.exit_code != 0 && r.exit_code != 124,
         scenario + ": status " + std::to_string(r.exit_code));
  expect(!contains(r.output, "UNEXPECTED"), scenario + ": a PE got past what must stop it");
  for (const std::string& t : texts) expect(contains(r.output, t), scenario + ": no '" + t + "' in the output");
}

int driver_main(const std::string& runner) {
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 2;
  self[len] = 0;
  run(runner, self, "host-contexts", {}, 0,
      {"ROCSHMEM_MAX_NUM_HOST_CONTEXTS=1 host contexts are in use", "ROCSHMEM_MAX_NUM_HOST_CONTEXTS=2 or more"});
  run(runner, self, "host-contexts-raised", {{"ROCSHMEM_MAX_NUM_HOST_CONTEXTS", "2"}}, 0, {"PE 1 finished"});
  run(runner, self, "teams", {}, 0, {"already belongs to 40 teams, the most ROCSHMEM_MAX_NUM_TEAMS=40 allows (38 user"});
  run(runner, self, "tiny-heap", {{"ROCSHMEM_HEAP_SIZE", "1"}}, 0,
      {"ROCSHMEM_HEAP_SIZE=1 is 1 byte(s) per PE (the unit is bytes, not KB, MB or GB)"});
  run(runner, self, "none", {{"ROCSHMEM_HEAP_SIZE", "1G"}}, 0,
      {"ROCSHMEM_HEAP_SIZE='1G': rocSHMEM takes plain bytes and reads this as 1 byte(s)"});
  run(runner, self, "double-free", {}, 1, {"symmetric heap usage error detected, possibly at"});
  run(runner, self, "none", {{"ROCSHMEM_HEAP_ALLOCATOR_TYPE", "fastest"}}, 1,
      {"Unknown ROCSHMEM_HEAP_ALLOCATOR_TYPE value 'fastest'"});
  run(runner, self, "none", {{"ROCSHMEM_HEAP_ALLOCATOR_TYPE", "VMM_POSIX"}}, 0, {"PE 1 finished"});
  run(runner, self, "none", {{"ROCSHMEM_BOOTSTRAP_TIMEOUT", "1e300"}}, 1,
      {"invalid ROCSHMEM_BOOTSTRAP_TIMEOUT='1e300' (expected seconds, > 0 and <= 86400)"});
  run(runner, self, "none", {{"ROCSHMEM_MAX_NUM_TEAMS", "99999999999999999999999"}}, 1,
      {"invalid ROCSHMEM_MAX_NUM_TEAMS='99999999999999999999999' (expected a whole number from 2 to 4096)"});
  run(runner, self, "none", {{"ROCSHMEM_RO_DISABLE_IPC", "1"}}, 0,
      {"ROCSHMEM_RO_DISABLE_IPC is deprecated. Please use ROCSHMEM_DISABLE_MIXED_IPC"});
  run(runner, self, "none", {{"ROCSHMEM_DISABLE_MIXED_IPC", "maybe"}}, 1,
      {"invalid ROCSHMEM_DISABLE_MIXED_IPC='maybe' (expected true, false, 1 or 0)"});
  run(runner, self, "none", {{"ROCSHMEM_DEBUG_LEVEL", "info:nocolor"}}, 0, {"initialized: PE 1 of 2"});
  run(runner, self, "none", {{"ROCSHMEM_DEBUG_LEVEL", "loud"}}, 1, {"invalid ROCSHMEM_DEBUG_LEVEL='loud'"});
  run(runner, self, "ipc-uid", {{"ROCSHMEM_EMU_PROFILE", "ipc-uid"}, {"ROCSHMEM_EMU_PROGRESS_MS", "3600000"}}, 1,
      {"rocshmem_long_p: rocSHMEM aborts here on the IPC backend without MPI", "ROCSHMEM_EMU_PROFILE=ipc-uid"});
  run(runner, self, "none", {{"ROCSHMEM_EMU_DELIVERY_SEED", "x1"}}, 1,
      {"invalid ROCSHMEM_EMU_DELIVERY_SEED='x1' (expected a decimal number, 0..2^64-1)"});
  run(runner, self, "none", {{"ROCSHMEM_EMU_COMPLETION", "lazy"}}, 1,
      {"invalid ROCSHMEM_EMU_COMPLETION='lazy' (expected deferred, fifo or immediate)"});
  // A PE that fails prints the job's delivery-order seed (and its peer, ended for it, too).
  run(runner, self, "failing-pe", {{"ROCSHMEM_EMU_DELIVERY_SEED", "12345"}}, 1,
      {"PE 1: exit status 3; puts were delivered in a seeded order: ROCSHMEM_EMU_DELIVERY_SEED=12345 reproduces"});
  if (g_failures) return 1;
  printf("PASS limits and settings\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "pe") return pe_main(argv[2]);
  if (argc != 2) {
    fprintf(stderr, "usage: %s <rocshmem-emu-run>\n", argv[0]);
    return 2;
  }
  return driver_main(argv[1]);
}
