/**
 * Where remote-source modules may be loaded from. A module runs as the daemon's user, so
 * `config.modulePath` must name a file the owner put in one of the module directories:
 * `<home>/source-modules/` (relative paths resolve there) or a directory of the start-up-only
 * `inbox.module_dirs`.
 *
 * The check runs before every load (creation, PATCH, every poll, after a restart), on the real
 * path of the file and of each directory, so `..`, a symlink pointing out, or a directory replaced
 * after the source was created cannot reach another file. The file must also be a regular file
 * (a FIFO or device would hang or leak), owned by the daemon's user (or root), not writable by
 * other users, and not group-writable unless its group is the daemon's own primary group (the
 * user-private-group convention, umask 002). The worker imports the checked real path, not the
 * path as given.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError, errors } from '../../core/index.js';

export const SOURCE_MODULES_DIR = 'source-modules';

/** Same text whether a path outside exists or not: the answer must not reveal other files. */
const OUTSIDE = 'it resolves outside the module directories';

export class ModuleLocations {
  /** `<home>/source-modules/` first, then `inbox.module_dirs` as configured (absolute). */
  readonly dirs: readonly string[];

  constructor(home: string, moduleDirs: readonly string[] = []) {
    this.dirs = [path.join(path.resolve(home), SOURCE_MODULES_DIR), ...moduleDirs.map((d) => path.resolve(d))];
  }

  get defaultDir(): string {
    return this.dirs[0]!;
  }

  /** Create `<home>/source-modules/` for the owner only (an existing directory is left as it is). */
  ensureDefaultDir(): void {
    fs.mkdirSync(this.defaultDir, { recursive: true, mode: 0o700 });
  }

  /**
   * The real path of the module file, or 400 source_module_not_allowed (outside the module
   * directories, not a regular file, writable by others) / invalid_source_module (a missing file
   * inside a module directory).
   */
  async resolve(modulePath: string): Promise<string> {
    const candidate = path.isAbsolute(modulePath) ? path.resolve(modulePath) : path.resolve(this.defaultDir, modulePath);
    const realDirs = await this.realDirs();
    let real: string;
    try {
      real = await fs.promises.realpath(candidate);
    } catch (err) {
      if (![...this.dirs, ...realDirs].some((dir) => isInside(dir, candidate))) throw this.refuse(modulePath, OUTSIDE);
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw errors.invalidSourceModule(modulePath, 'the file does not exist');
      throw this.refuse(modulePath, `it cannot be resolved (${code ?? 'error'})`);
    }
    if (!realDirs.some((dir) => isInside(dir, real))) throw this.refuse(modulePath, OUTSIDE);
    const st = await fs.promises.lstat(real);
    if (!st.isFile()) throw this.refuse(modulePath, 'it is not a regular file');
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid && st.uid !== 0) throw this.refuse(modulePath, "it is owned by another user than the daemon's");
    if (st.mode & 0o002) throw this.refuse(modulePath, 'it is writable by other users (chmod o-w)');
    if (st.mode & 0o020 && st.gid !== process.getgid?.()) throw this.refuse(modulePath, "it is writable by a group other than the daemon's own (chmod g-w)");
    return real;
  }

  /** Real paths of the module directories that exist now (checked at every load: they may change). */
  private async realDirs(): Promise<string[]> {
    const out: string[] = [];
    for (const dir of this.dirs) {
      try {
        out.push(await fs.promises.realpath(dir));
      } catch {
        // A configured directory that does not exist (yet) allows nothing.
      }
    }
    return out;
  }

  private refuse(modulePath: string, reason: string): AppError {
    return errors.sourceModuleNotAllowed(modulePath, reason, [...this.dirs]);
  }
}

/** Strictly below `dir` (both absolute and normalised). */
function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}
