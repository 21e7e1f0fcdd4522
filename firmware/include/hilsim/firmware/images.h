#pragma once
// Where the host finds the firmware images (firmware/README.md): <dir>/<preset>.elf, <dir> being
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

// The image of `preset` (for a board preset, its core's) built at optimization level `opt`
// (cpu.firmware_opt: "O2", the file <core preset>.elf, or "Os", <core preset>-Os.elf). Throws
// ConfigError for a preset without an image or another level, and InputError when the file is
// missing (the build makes it; HILSIM_FIRMWARE=OFF builds none).
std::string imagePath(const std::string& preset, const std::string& opt = "O2");

}  // namespace hilsim::firmware
