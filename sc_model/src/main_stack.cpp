#include "main_stack.h"

#if defined(__SANITIZE_ADDRESS__)
#define HILSIM_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HILSIM_HAS_ASAN 1
#endif
#endif

#ifdef HILSIM_HAS_ASAN
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace hilsim::model {

void restoreMainStackBounds() {
#ifdef HILSIM_HAS_ASAN
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* bottom = nullptr;
  size_t size = 0;
  const bool known = pthread_attr_getstack(&attr, &bottom, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!known) return;
  // A switch from this stack to itself: the sanitizer takes the announced bounds as current.
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

}  // namespace hilsim::model
