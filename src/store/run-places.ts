/**
 * Where runs are kept. Every format writes its runs to the runs folder (`transcripts/`), where the
 * run index and the batches live too; a council writes its records where seed 003 §6 puts them,
 * `records/debates/<run_id>/`. `--out DIR` names one folder for every run, councils included.
 * Commands that look for a run, list runs or rebuild the index look in every place.
 */
import path from 'node:path';

/** The runs folder, relative to the working folder, when none is given. */
export const DEFAULT_RUNS_FOLDER = 'transcripts';
/** A council's records folder, relative to the working folder, when no runs folder is given. */
export const DEFAULT_COUNCIL_FOLDER = path.join('records', 'debates');

/** The folders runs are kept in. */
export interface RunPlaces {
  /** Runs of every format but the council, the run index (index.sqlite) and the batches. */
  runs: string;
  /** A council's run folders, `<councils>/<run_id>/`, and its decision records (`notes/`). */
  councils: string;
}

/**
 * The places for a working folder: the defaults (`transcripts/`, `records/debates/`), or `out`
 * for every run when one is given (`--out DIR`).
 */
export function runPlaces(cwd: string, out?: string): RunPlaces {
  if (out !== undefined) {
    const folder = path.resolve(cwd, out);
    return { runs: folder, councils: folder };
  }
  return {
    runs: path.resolve(cwd, DEFAULT_RUNS_FOLDER),
    councils: path.resolve(cwd, DEFAULT_COUNCIL_FOLDER),
  };
}

/** One folder for every run (what `--out DIR` gives), as places. */
export function singlePlace(folder: string): RunPlaces {
  return { runs: folder, councils: folder };
}

/** The folder a new run of `format` goes to. */
export function folderFor(places: RunPlaces, format: string): string {
  return format === 'council' ? places.councils : places.runs;
}

/** Every folder that holds runs, each once, the runs folder first. */
export function runSearchFolders(places: RunPlaces): string[] {
  return [...new Set([places.runs, places.councils])];
}

/**
 * The runs folder whose index records the run in `runDir`: the runs folder for a council's
 * records, else the folder the run is in (a run resumed by its path keeps its own folder's index).
 */
export function indexFolderFor(places: RunPlaces, runDir: string): string {
  const parent = path.dirname(path.resolve(runDir));
  return parent === places.councils ? places.runs : parent;
}
