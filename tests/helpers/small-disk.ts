/**
 * A real small file system for storage-fault tests: a tmpfs mounted in a temp folder, which a test
 * can fill up (ENOSPC) or make read-only (EROFS). Mounting needs root on Linux; elsewhere the tests
 * that need it are skipped.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './cli.js';

export interface SmallDisk {
  dir: string;
  /**
   * Fills the free space with a filler file (the write stops at ENOSPC, as on a real full disk),
   * then gives `leaveBytes` back.
   */
  fill(leaveBytes?: number): void;
  /** Frees the space taken by `fill()`. */
  free(): void;
  readOnly(on: boolean): void;
  unmount(): void;
}

function mountTmpfs(sizeKb: number): SmallDisk {
  const dir = tempDir('agora-disk-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { stdio: 'ignore' });
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill(leaveBytes = 0) {
      try {
        writeFileSync(filler, Buffer.alloc(sizeKb * 1024));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
      truncateSync(filler, Math.max(0, statSync(filler).size - leaveBytes));
    },
    free() {
      rmSync(filler, { force: true });
    },
    readOnly(on) {
      execFileSync('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, dir], { stdio: 'ignore' });
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether this machine lets the tests mount a tmpfs (root on Linux, and mounting allowed). */
export const canMountSmallDisk: boolean = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    mountTmpfs(64).unmount();
    return true;
  } catch {
    return false;
  }
})();

/** Mounts a small disk of `sizeKb` for a test; call `unmount()` when done. */
export function smallDisk(sizeKb: number): SmallDisk {
  return mountTmpfs(sizeKb);
}
