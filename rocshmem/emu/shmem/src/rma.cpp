#include "rma.hpp"

#include "p2p_sync.hpp"

namespace rocshmem_emu {

char* remote_ptr(const void* addr, size_t nbytes, int pe, const char* fn, const char* what) {
  Runtime& rt = runtime();
  if (pe < 0 || pe >= rt.n_pes) {
    if (require_initialized(fn))
      report_error("%s: invalid pe %d (n_pes is %d); nothing done", fn, pe, rt.n_pes);
    count(Stat::errors);
    return nullptr;
  }
  size_t off;
  if (!heap_offset(addr, nbytes, &off)) {
    report_error("%s: %s address %p (+%zu bytes) is not inside the symmetric heap [%p, +%zu); nothing done", fn, what,
                 addr, nbytes, static_cast<void*>(rt.heap_base), rt.heap_size);
    count(Stat::errors);
    return nullptr;
  }
  return rt.peer_base[pe] + off;
}

bool byte_count(size_t nelems, size_t elem_size, size_t* bytes, const char* fn) {
  if (__builtin_mul_overflow(nelems, elem_size, bytes)) {
    report_error("%s: nelems %zu is too large; nothing done", fn, nelems);
    return false;
  }
  return true;
}

bool valid_cmp(int cmp, const char* fn) {
  if (cmp >= 0 && cmp <= 5) return true;
  report_error("%s: invalid comparison %d (expected ROCSHMEM_CMP_EQ..ROCSHMEM_CMP_LE); nothing done", fn, cmp);
  return false;
}

bool p2p_args_ok(const void* ivars, int cmp, const char* fn) {
  if (!require_initialized(fn) || !valid_cmp(cmp, fn)) return false;
  if (!ivars) {
    report_error("%s: ivars is null; nothing done", fn);
    return false;
  }
  return true;
}

}  // namespace rocshmem_emu
