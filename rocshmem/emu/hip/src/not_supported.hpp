// What every generated stub does: record hipErrorNotSupported and return a neutral value.
#pragma once

#include <type_traits>

#include "emu_errors.hpp"

namespace hip_emu {

template <typename Result>
Result not_supported(const char* /*function_name*/) {
  (void)report(hipErrorNotSupported);
  if constexpr (std::is_same_v<Result, hipError_t>) {
    return hipErrorNotSupported;
  } else if constexpr (!std::is_void_v<Result>) {
    return Result{};
  }
}

}  // namespace hip_emu
