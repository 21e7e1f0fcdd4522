#include <iostream>
#include <sstream>

#include "args.h"
#include "commands.h"
#include "hilsim/annotate/model_view.h"
#include "hilsim/errors.h"
#include "hilsim/rt/interpreter.h"

namespace hilsim::cli {

int inspectCommand(int argc, char** argv, int first) {
  std::string path;
  bool json = false;
  ArgParser args("inspect",
                 "Shows the tensors, operators, quantization and annotations of a model, and\n"
                 "whether hilsim can run it. Exits 2 if the file is not a valid model.");
  args.positional("M.tflite", &path, true, "model to inspect");
  args.flag("--json", &json, "print JSON instead of text");
  if (!args.parse(argc, argv, first)) return 0;
  rt::Model model = rt::Model::fromFile(path);
  const annotate::ModelView view = annotate::describeModel(model);
  std::cout << (json ? annotate::modelViewJson(view) : annotate::modelViewText(view));
  return 0;
}

}  // namespace hilsim::cli
