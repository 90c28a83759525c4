package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
)

// SaveDiskBaseline records a disk baseline and returns its id.
func (s *Store) SaveDiskBaseline(ctx context.Context, b *results.DiskBaseline) (int64, error) {
	if b == nil || len(b.Tests) == 0 {
		return 0, errors.New("save disk baseline: no tests")
	}
	clean := *b
	clean.Dir = redact.Text(b.Dir)
	doc, err := json.Marshal(&clean)
	if err != nil {
		return 0, fmt.Errorf("save disk baseline: %w", err)
	}
	c := clean.Ceiling()
	res, err := s.db.ExecContext(ctx, `INSERT INTO disk_baselines
		(device, dir, measured_at, rand_read_iops, rand_write_iops, seq_read_mb_s, seq_write_mb_s, baseline)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		clean.Device, clean.Dir, formatTime(clean.MeasuredAt), c.RandReadIOPS, c.RandWriteIOPS, c.SeqReadMBPerS, c.SeqWriteMBPerS, string(doc))
	if err != nil {
		return 0, fmt.Errorf("save disk baseline in %s: %w", s.path, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("save disk baseline in %s: %w", s.path, err)
	}
	return id, nil
}

// LatestDiskBaseline returns the newest baseline of device ("" for the
// newest of any device), or ErrNotFound.
func (s *Store) LatestDiskBaseline(ctx context.Context, device string) (*results.DiskBaseline, error) {
	q := `SELECT baseline FROM disk_baselines`
	var args []any
	if device != "" {
		q += ` WHERE device = ?`
		args = append(args, device)
	}
	q += ` ORDER BY measured_at DESC, id DESC LIMIT 1`
	var doc string
	err := s.db.QueryRowContext(ctx, q, args...).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		if device == "" {
			return nil, fmt.Errorf("disk baseline: %w", ErrNotFound)
		}
		return nil, fmt.Errorf("disk baseline of %s: %w", device, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("disk baseline in %s: %w", s.path, err)
	}
	var b results.DiskBaseline
	if err := json.Unmarshal([]byte(doc), &b); err != nil {
		return nil, fmt.Errorf("disk baseline in %s: %w", s.path, err)
	}
	return &b, nil
}

// DiskBaselines returns the newest baseline of each device, by device
// name.
func (s *Store) DiskBaselines(ctx context.Context) ([]*results.DiskBaseline, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT baseline FROM disk_baselines d
		WHERE id = (SELECT id FROM disk_baselines e WHERE e.device = d.device ORDER BY measured_at DESC, id DESC LIMIT 1)
		ORDER BY device`)
	if err != nil {
		return nil, fmt.Errorf("disk baselines in %s: %w", s.path, err)
	}
	defer func() { _ = rows.Close() }()
	var out []*results.DiskBaseline
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			return nil, fmt.Errorf("disk baselines in %s: %w", s.path, err)
		}
		var b results.DiskBaseline
		if err := json.Unmarshal([]byte(doc), &b); err != nil {
			return nil, fmt.Errorf("disk baselines in %s: %w", s.path, err)
		}
		out = append(out, &b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("disk baselines in %s: %w", s.path, err)
	}
	return out, nil
}

// DiskCeilings are the ceilings of the newest baseline of each device:
// what a run's diagnosis judges its busiest disk against.
func (s *Store) DiskCeilings(ctx context.Context) ([]*results.DiskCeiling, error) {
	bs, err := s.DiskBaselines(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*results.DiskCeiling, 0, len(bs))
	for _, b := range bs {
		out = append(out, b.Ceiling())
	}
	return out, nil
}

// RunCeilings are DiskCeilings for a run's diagnosis, which judges its
// disk against them: a store that cannot say costs the run nothing but
// that judgement, said through warn.
func (s *Store) RunCeilings(ctx context.Context, warn func(string)) []*results.DiskCeiling {
	cs, err := s.DiskCeilings(ctx)
	if err != nil {
		warn(fmt.Sprintf("the disk baselines could not be read, disks are judged by their utilisation: %v", err))
		return nil
	}
	return cs
}
