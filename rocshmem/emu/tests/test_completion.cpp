// When remote writes become visible (ROCSHMEM_EMU_COMPLETION). PE 0 writes to PE 1 and then
// holds still (polling an ack with rocshmem_*_test, which delivers nothing) while PE 1 looks:
// under `deferred` PE 1 must see what a GPU may show, the old data when the writer forgot quiet or
// fence, and the new data once the writer quiets; under `immediate` every write is already there.
// EMU_TEST_SCENARIO=progress instead checks that an unquieted put still arrives (progress thread)
// while the writer never calls quiet. Other PEs only join the barriers.
#include "emu_test.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace rocshmem;

namespace {

int me;
bool deferred;
constexpr int kN = 64;

struct Shared {
  int data[kN];
  int flag;
  int ack;
  int pad[2];
  uint64_t signal;
  int nbi_src[kN];  // PE 0's nbi source (symmetric only for convenience)
  int got[kN];      // get_nbi destination
};

Shared* s;

void reset() {
  rocshmem_barrier_all();
  memset(s, 0, sizeof *s);
  rocshmem_barrier_all();
}

// PE 0: waits for PE 1's ack without making progress (rocshmem_int_test delivers nothing).
void hold_until_ack(int round) {
  while (!rocshmem_int_test(&s->ack, ROCSHMEM_CMP_EQ, round)) {
  }
}

void fill(int* v, int base) {
  for (int i = 0; i < kN; i++) v[i] = base + i;
}

bool equals(const int* v, int base) {
  for (int i = 0; i < kN; i++)
    if (v[i] != base + i) return false;
  return true;
}

bool all_zero(const int* v) {
  for (int i = 0; i < kN; i++)
    if (v[i] != 0) return false;
  return true;
}

// put; atomic flag (no fence): PE 1 may see the flag before the data.
void test_put_without_fence() {
  reset();
  if (me == 0) {
    int src[kN];
    fill(src, 100);
    rocshmem_int_put(s->data, src, kN, 1);
    fill(src, -1);  // a blocking put's source may be reused at once
    rocshmem_int_atomic_set(&s->flag, 1, 1);
    hold_until_ack(1);
    rocshmem_quiet();
  } else if (me == 1) {
    rocshmem_int_wait_until(&s->flag, ROCSHMEM_CMP_EQ, 1);
    if (deferred)
      EMU_CHECK(all_zero(s->data), "deferred: data of a put not yet quieted or fenced must not be visible");
    else
      EMU_CHECK(equals(s->data, 100), "immediate: the put is visible at once");
    rocshmem_int_atomic_set(&s->ack, 1, 0);
  }
  rocshmem_barrier_all();
  if (me == 1) EMU_CHECK(equals(s->data, 100), "after quiet + barrier the put (its original source) arrived");
  emu_test::passed(deferred ? "deferred: a put is not visible before quiet/fence" : "immediate: a put is visible at once");
}

// put; fence; atomic flag: the fence orders the data before the flag.
void test_put_with_fence() {
  reset();
  if (me == 0) {
    int src[kN];
    fill(src, 200);
    rocshmem_int_put(s->data, src, kN, 1);
    rocshmem_fence();
    rocshmem_int_atomic_set(&s->flag, 1, 1);
    hold_until_ack(1);
  } else if (me == 1) {
    rocshmem_int_wait_until(&s->flag, ROCSHMEM_CMP_EQ, 1);
    EMU_CHECK(equals(s->data, 200), "fence orders the put before the flag");
    rocshmem_int_atomic_set(&s->ack, 1, 0);
  }
  rocshmem_barrier_all();
  emu_test::passed("fence orders a put before a later atomic");
}

// put_nbi reads its source at delivery; get_nbi writes its dest at delivery.
void test_nbi() {
  reset();
  if (me == 0) {
    fill(s->nbi_src, 300);
    rocshmem_int_put_nbi(s->data, s->nbi_src, kN, 1);
    rocshmem_int_get_nbi(s->got, s->nbi_src, kN, 1);  // PE 1's nbi_src is all zero
    fill(s->got, 7);  // dest of a pending get: overwritten at quiet in deferred mode
    fill(s->nbi_src, 400);  // too early: the put may still read it
    rocshmem_int_atomic_set(&s->flag, 1, 1);
    hold_until_ack(1);
    rocshmem_quiet();
    if (deferred) {
      EMU_CHECK(all_zero(s->got), "deferred: get_nbi fills dest at quiet");
    } else {
      EMU_CHECK(equals(s->got, 7), "immediate: get_nbi filled dest before it returned");
    }
  } else if (me == 1) {
    rocshmem_int_wait_until(&s->flag, ROCSHMEM_CMP_EQ, 1);
    if (deferred) EMU_CHECK(all_zero(s->data), "deferred: put_nbi is not complete before quiet");
    rocshmem_int_atomic_set(&s->ack, 1, 0);
  }
  rocshmem_barrier_all();
  if (me == 1)
    EMU_CHECK(equals(s->data, deferred ? 400 : 300),
              deferred ? "deferred: put_nbi read its source at quiet (the source was changed too early)"
                       : "immediate: put_nbi read its source in the call");
  emu_test::passed("put_nbi / get_nbi complete at quiet");
}

// A put with signal on a stream: whoever sees the signal sees the data.
void test_signal_delivers_data_first() {
  reset();
  hipStream_t stream;
  EMU_CHECK_EQ(hipStreamCreate(&stream), hipSuccess, "hipStreamCreate");
  if (me == 0) {
    fill(s->nbi_src, 500);
    rocshmem_putmem_signal_on_stream(s->data, s->nbi_src, sizeof s->data, &s->signal, 9, ROCSHMEM_SIGNAL_SET, 1,
                                     stream);
    rocshmem_quiet_on_stream(stream);
    EMU_CHECK_EQ(hipStreamSynchronize(stream), hipSuccess, "hipStreamSynchronize");
  } else if (me == 1) {
    rocshmem_signal_wait_until_on_stream(&s->signal, ROCSHMEM_CMP_EQ, 9, stream);
    EMU_CHECK_EQ(hipStreamSynchronize(stream), hipSuccess, "hipStreamSynchronize");
    EMU_CHECK(equals(s->data, 500), "put_signal: data visible when the signal is");
  }
  EMU_CHECK_EQ(hipStreamDestroy(stream), hipSuccess, "hipStreamDestroy");
  rocshmem_barrier_all();
  emu_test::passed("put-with-signal delivers the data before the signal");
}

// The writer never quiets and never waits in the library: the progress path still delivers.
void test_progress() {
  reset();
  if (me == 0) {
    rocshmem_int_p(&s->flag, 1, 1);
    hold_until_ack(1);
  } else if (me == 1) {
    rocshmem_int_wait_until(&s->flag, ROCSHMEM_CMP_EQ, 1);
    rocshmem_int_p(&s->ack, 1, 0);
    rocshmem_quiet();
  }
  rocshmem_barrier_all();
  emu_test::passed("an unquieted put arrives through the progress path");
}

}  // namespace

int main() {
  me = emu_test::init();
  EMU_CHECK(rocshmem_n_pes() >= 2, "needs at least 2 PEs");
  const char* mode = getenv("ROCSHMEM_EMU_COMPLETION");
  deferred = !mode || strcmp(mode, "immediate") != 0;
  s = static_cast<Shared*>(rocshmem_calloc(1, sizeof(Shared)));
  EMU_CHECK(s, "rocshmem_calloc failed");
  const char* scenario = getenv("EMU_TEST_SCENARIO");
  if (scenario && strcmp(scenario, "progress") == 0) {
    test_progress();
  } else {
    test_put_without_fence();
    test_put_with_fence();
    test_nbi();
    test_signal_delivers_data_first();
  }
  rocshmem_free(s);
  rocshmem_finalize();
  return 0;
}
