// Small assertion kit shared by the native multi-PE tests.
// A failed check prints "FAIL PE <me> file:line: what (actual vs expected)" and exits 1, so the
// launcher (rocshmem-emu-run) stops the other PEs and reports the failure as the test's status.
#pragma once

#include <rocshmem/rocshmem.hpp>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>

namespace emu_test {

inline int& my_pe_for_messages() {
  static int pe = -1;
  return pe;
}

[[noreturn]] inline void fail(const char* file, int line, const std::string& what) {
  fprintf(stderr, "FAIL PE %d %s:%d: %s\n", my_pe_for_messages(), file, line, what.c_str());
  fflush(stdout);
  fflush(stderr);
  exit(1);
}

// Print chars as numbers, everything else as streamed.
template <typename T>
std::string show(const T& v) {
  std::ostringstream os;
  if constexpr (std::is_integral_v<T> && sizeof(T) == 1)
    os << static_cast<int>(v);
  else if constexpr (std::is_pointer_v<T>)
    os << static_cast<const void*>(v);
  else
    os << v;
  return os.str();
}

// Prints "PASS <name>" once (from PE 0) so the log shows how far a test got.
inline void passed(const char* name) {
  if (my_pe_for_messages() == 0) {
    printf("PASS %s\n", name);
    fflush(stdout);
  }
}

// Initialises rocSHMEM and remembers our PE number for failure messages. rocshmem_init returns
// nothing; a failed init shows as my_pe() == -1 (the emulator has printed why).
inline int init() {
  rocshmem::rocshmem_init();
  my_pe_for_messages() = rocshmem::rocshmem_my_pe();
  if (my_pe_for_messages() < 0) fail(__FILE__, __LINE__, "rocshmem_init failed (rocshmem_my_pe() < 0)");
  return my_pe_for_messages();
}

// init() plus this PE's place on the ring of all PEs: (me, npes, right, left), for tests that pass
// data to the next PE and check what came from the previous one.
inline std::tuple<int, int, int, int> init_ring() {
  const int me = init();
  const int npes = rocshmem::rocshmem_n_pes();
  return {me, npes, (me + 1) % npes, (me + npes - 1) % npes};
}

}  // namespace emu_test

#define EMU_CHECK(cond, msg)                                                              \
  do {                                                                                    \
    if (!(cond)) emu_test::fail(__FILE__, __LINE__, std::string(#cond) + ": " + (msg)); \
  } while (0)

// Compares with ==; on mismatch prints both values and the context string.
#define EMU_CHECK_EQ(actual, expected, context)                                          \
  do {                                                                                   \
    const auto emu_a_ = (actual);                                                        \
    const auto emu_e_ = (expected);                                                      \
    if (!(emu_a_ == emu_e_))                                                             \
      emu_test::fail(__FILE__, __LINE__,                                                 \
                     std::string(context) + ": " #actual " = " + emu_test::show(emu_a_) + \
                         ", expected " + emu_test::show(emu_e_));                        \
  } while (0)
