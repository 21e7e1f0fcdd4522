#pragma once

namespace hilsim::model {

// SystemC's coroutine package reports the main coroutine's stack to AddressSanitizer as empty, so
// after sc_start() returns the sanitizer no longer knows where the main stack is and every later
// C++ exception leaves stale poison behind (google/sanitizers#189). Re-announces the real bounds
// of the calling thread's stack. Does nothing in builds without AddressSanitizer.
void restoreMainStackBounds();

}  // namespace hilsim::model
