#pragma once
// One function per subcommand. Each parses its own flags (argv[first..]) and returns the exit
// code; errors are thrown as hilsim::Error and turned into exit codes by main.

namespace hilsim::cli {

int runCommand(int argc, char** argv, int first);
int inspectCommand(int argc, char** argv, int first);
int genModelCommand(int argc, char** argv, int first);
int configCommand(int argc, char** argv, int first);
int annotateCommand(int argc, char** argv, int first);
int stripCommand(int argc, char** argv, int first);
int sweepCommand(int argc, char** argv, int first);
int crossoverCommand(int argc, char** argv, int first);
int traceStatsCommand(int argc, char** argv, int first);
int cpuRunCommand(int argc, char** argv, int first);
int calibrateCommand(int argc, char** argv, int first);

}  // namespace hilsim::cli
