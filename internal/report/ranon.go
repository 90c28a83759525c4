package report

// RanOn is what each configuration ran on, property by property (server
// version, storage engine, topology, cache, hosts), as the caller read it
// from the results files.
type RanOn struct {
	// Names are the configurations', the baseline first.
	Names []string
	// Rows are every property some run recorded.
	Rows []RanOnRow
	// Differ are the properties of Rows whose values differ between
	// configurations.
	Differ []RanOnRow
	// Varied are the properties the sweeps vary and those allowed to
	// differ, with each configuration's values.
	Varied []RanOnRow
}

// RanOnRow is one property, a value per configuration ("" when none of
// its runs recorded it).
type RanOnRow struct {
	Property string
	Values   []string
}

// ranOnView is the section that says what each configuration ran on.
type ranOnView struct {
	All    tableView
	Differ *tableView
}

// buildRanOn lays out the tables of what each configuration ran on and
// how the configurations differ; nil when nothing was recorded.
func buildRanOn(ro *RanOn) *ranOnView {
	if ro == nil || len(ro.Rows) == 0 || len(ro.Names) == 0 {
		return nil
	}
	table := func(title string, rows []RanOnRow) tableView {
		t := tableView{Title: title, Head: append([]string{""}, ro.Names...)}
		for _, r := range rows {
			row := []cell{{V: r.Property}}
			for i := range ro.Names {
				v := "not recorded"
				if i < len(r.Values) && r.Values[i] != "" {
					v = r.Values[i]
				}
				row = append(row, cell{V: v})
			}
			t.Rows = append(t.Rows, row)
		}
		return t
	}
	title := "What each configuration ran on"
	if len(ro.Names) == 1 {
		title = "What the runs ran on"
	}
	v := &ranOnView{All: table(title, ro.Rows)}
	v.All.Note = "As the results files recorded it: the server's version, engine and topology when the runs started; the WiredTiger cache's configured size; the CPUs and memory of the host mongobench ran on, which is the server's host too when the server runs there. A value followed by run counts is one the runs of a configuration disagree on."
	if len(ro.Names) > 1 {
		const title = "How these configurations differ"
		switch {
		case len(ro.Differ) > 0:
			d := table(title, append(append([]RanOnRow(nil), ro.Differ...), ro.Varied...))
			d.Note = "The properties above whose values differ between configurations"
			if len(ro.Varied) > 0 {
				d.Note += ", then the properties the sweeps vary and those allowed to differ (--allow-different)"
			}
			d.Note += ". Everything else recorded is the same."
			v.Differ = &d
		case len(ro.Varied) > 0:
			d := table(title, ro.Varied)
			d.Note = "In nothing recorded: the same server, engine, topology and hosts. The table gives the properties the sweeps vary and those allowed to differ (--allow-different)."
			v.Differ = &d
		default:
			v.Differ = &tableView{Title: title, Note: "In nothing recorded: the same server, engine, topology and hosts, and no property varied or allowed to differ."}
		}
	}
	return v
}
