// The emulator's own diagnostics and upstream return values: a program retrying a rejected call in
// a loop gets the first few reports in full and then one line with the count (at finalize), not a
// line per call; team_split_2d on ROCSHMEM_TEAM_INVALID fails (ROCSHMEM_ERROR) as upstream does,
// while split_strided on INVALID gives INVALID and 0.
// Usage: test_diagnostics <path-to-rocshmem-emu-run>. The same binary, started by the runner as
// "test_diagnostics pe", plays the PEs.
#include "emu_process.hpp"
#include "emu_test.hpp"

using emu_process::contains;

namespace {

constexpr int kRetries = 20000;
int not_symmetric = 0;  // a global: not on the symmetric heap, so every put to it is refused

int pe_main() {
  using namespace rocshmem;
  const int me = emu_test::init();
  rocshmem_team_t x = ROCSHMEM_TEAM_WORLD, y = ROCSHMEM_TEAM_WORLD;
  EMU_CHECK(rocshmem_team_split_2d(ROCSHMEM_TEAM_INVALID, 1, nullptr, 0, &x, nullptr, 0, &y) != 0,
            "split_2d of INVALID must fail like upstream");
  EMU_CHECK(x == ROCSHMEM_TEAM_INVALID && y == ROCSHMEM_TEAM_INVALID, "split_2d of INVALID gives INVALID");
  rocshmem_team_t child = ROCSHMEM_TEAM_WORLD;
  EMU_CHECK_EQ(rocshmem_team_split_strided(ROCSHMEM_TEAM_INVALID, 0, 1, 1, nullptr, 0, &child), 0,
               "split_strided of INVALID");
  EMU_CHECK(child == ROCSHMEM_TEAM_INVALID, "split_strided of INVALID gives INVALID");
  if (me == 0)
    for (int i = 0; i < kRetries; i++) rocshmem_int_p(&not_symmetric, i, 1);
  rocshmem_finalize();
  printf("PE %d finished\n", me);
  return 0;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

int driver_main(const std::string& runner) {
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 2;
  self[len] = 0;
  auto r = emu_process::run_capture({runner, "-n", "2", "--timeout", "60", "--", self, "pe"});
  printf("--- status %d, %.2f s, %zu bytes of output ---\n%s", r.exit_code, r.seconds, r.output.size(),
         r.output.c_str());
  int failures = 0;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) {
      fprintf(stderr, "FAIL diagnostics test: %s\n", what.c_str());
      ++failures;
    }
  };
  expect(r.exit_code == 0, "job status " + std::to_string(r.exit_code));
  expect(contains(r.output, "PE 0 finished") && contains(r.output, "PE 1 finished"), "both PEs finished");
  expect(occurrences(r.output, "parent team is ROCSHMEM_TEAM_INVALID") == 2, "one split_2d report per PE");
  const std::string refused = "rocshmem_int_p: dest address";
  const size_t reports = occurrences(r.output, refused);
  expect(reports == 6, "5 full reports + 1 summary of the refused put, got " + std::to_string(reports));
  expect(contains(r.output, std::to_string(kRetries - 5) + " more reports like \"rocshmem_int_p: dest address"),
         "a summary line with the count of suppressed reports");
  expect(r.output.size() < 8192, "the output stays small");
  if (failures) return 1;
  printf("PASS diagnostics: repeated misuse summarised, split_2d of INVALID fails\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "pe") return pe_main();
  if (argc != 2) {
    fprintf(stderr, "usage: %s <rocshmem-emu-run>\n", argv[0]);
    return 2;
  }
  return driver_main(argv[1]);
}
