#include "runtime.hpp"

#include "log.hpp"

namespace rocshmem_emu {

Runtime& runtime() {
  static Runtime* rt = new Runtime();  // never destroyed: atexit handlers may still read it
  return *rt;
}

bool require_initialized(const char* fn) {
  if (is_initialized()) return true;
  report_error("%s: rocSHMEM is not initialized (call rocshmem_init first); nothing done", fn);
  return false;
}

}  // namespace rocshmem_emu
