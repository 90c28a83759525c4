package bench

import (
	"fmt"
	"path/filepath"

	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

// CheckSpecOutputs refuses, before anything is measured, a summary file
// (exportfile) or histogram logs' prefix that could not be written, and a
// summary file that is the results file out: YCSB finds a missing
// directory only once the run is over, and loses its output.
func CheckSpecOutputs(spec *workload.Spec, out string) error {
	if spec.ExportFile != "" {
		if err := output.CheckProperty("exportfile", spec.ExportFile); err != nil {
			return err
		}
		if out != "" && filepath.Clean(out) == filepath.Clean(spec.ExportFile) {
			return fmt.Errorf("exportfile=%s and --out %s name the same file: the summary goes to exportfile, the JSON results to --out, each to a file of its own", spec.ExportFile, out)
		}
	}
	if spec.HdrFileOutput {
		return output.CheckPrefix("hdrhistogram.output.path", spec.HdrOutputPath)
	}
	return nil
}

// OutputFiles are the files a load or run writes whole: the results file
// out ("" for none) and its journal, the summary file, the histogram logs.
func OutputFiles(spec *workload.Spec, out string) []output.Named {
	var files []output.Named
	if out != "" {
		files = append(files, output.Named{Flag: "--out", Path: out}, output.Named{Flag: "--out (its journal)", Path: out + results.JournalSuffix})
	}
	if spec.ExportFile != "" {
		files = append(files, output.Named{Flag: "exportfile", Path: spec.ExportFile})
	}
	if spec.HdrFileOutput {
		// The logs are named for the measurements that get data; READ's
		// stands for them all: same directory, same kind of name.
		files = append(files, output.Named{Flag: "hdrhistogram.output.path", Path: spec.HdrOutputPath + "READ.hdr"})
	}
	return files
}
