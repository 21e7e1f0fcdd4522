# The optimized kernels' freestanding sources (relative to kernels/optimized/), shared by the host
# library and the firmware images, which compile them for each core.
set(HILSIM_OPT_KERNEL_SOURCES
  src/conv.cpp
  src/depthwise_conv.cpp
  src/elementwise.cpp
  src/fully_connected.cpp
  src/lstm.cpp
  src/pooling.cpp
  src/softmax.cpp
)
