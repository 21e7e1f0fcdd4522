#pragma once
// Where the host finds the firmware images (firmware/README.md): <dir>/<preset>.elf (reference
// kernels) and <dir>/<preset>-optimized.elf (optimized kernels), <dir> being
// $HILSIM_FIRMWARE_DIR when set and non-empty, else the build tree's firmware/ directory, fixed
// at compile time. No path from the user is needed.

#include <string>
#include <vector>

namespace hilsim::firmware {

// The presets that have an image of their own: the core presets of the ISS (a board preset runs
// its core's image).
const std::vector<std::string>& presets();

// The directory holding the images.
std::string imageDir();

// The kernel library an image's hs_kernel runs.
enum class ImageLibrary { kReference, kOptimized };

// The image of `preset` (for a board preset, its core's) with `library`, built at optimization
// level `opt` (cpu.firmware_opt): "O2" (<core preset>[-optimized].elf) or, for the reference
// kernels, "Os" (<core preset>-Os.elf). Throws ConfigError for a preset without an image or a
// combination without one, and InputError when the file is missing (the build makes it;
// HILSIM_FIRMWARE=OFF builds none).
std::string imagePath(const std::string& preset, ImageLibrary library = ImageLibrary::kReference,
                      const std::string& opt = "O2");

}  // namespace hilsim::firmware
