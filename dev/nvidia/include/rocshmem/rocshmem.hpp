// <rocshmem/rocshmem.hpp> for the real-GPU cross-check on NVIDIA: rocSHMEM's API on NVSHMEM.
#include "../../rocshmem_on_nvshmem.hpp"
