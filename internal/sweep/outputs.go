package sweep

import (
	"fmt"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/output"
)

// CheckOutputs refuses, before anything runs, a point whose summary format
// or whose summary file or histogram logs could not be written, or would
// replace one of inputs; then a store ("" for none) that cannot be one,
// and a data directory that takes no files when the sweep starts its own
// server.
func (p *Plan) CheckOutputs(inputs []output.Named, store, dataDir string) error {
	for _, pt := range p.Points {
		if err := checkPoint(pt, inputs); err != nil {
			if pt.Label == "" {
				return fmt.Errorf("sweep: %w", err)
			}
			return fmt.Errorf("sweep point %s: %w", pt.Label, err)
		}
	}
	if store != "" {
		if err := output.CheckStore(store); err != nil {
			return err
		}
	}
	if p.NeedServer {
		return output.CheckDataDir(dataDir)
	}
	return nil
}

func checkPoint(p *Point, inputs []output.Named) error {
	exporter, _ := p.Settings.Props.Get("exporter")
	if _, err := export.ParseExporter(exporter); err != nil {
		return err
	}
	spec := p.Settings.Spec
	var outs []output.Named
	if spec.ExportFile != "" {
		if err := output.CheckProperty("exportfile", spec.ExportFile); err != nil {
			return err
		}
		outs = append(outs, output.Named{Flag: "exportfile", Path: spec.ExportFile})
	}
	if spec.HdrFileOutput {
		if err := output.CheckPrefix("hdrhistogram.output.path", spec.HdrOutputPath); err != nil {
			return err
		}
		outs = append(outs, output.Named{Flag: "hdrhistogram.output.path", Path: spec.HdrOutputPath + "READ.hdr"})
	}
	return output.CheckDistinct(inputs, outs)
}
