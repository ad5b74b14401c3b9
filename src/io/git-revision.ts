import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The git revision of the pmiyc code that runs, when it runs from a git checkout of pmiyc. */
export function gitRevision(): string | undefined {
  return gitRevisionOf(fileURLToPath(new URL('../../', import.meta.url)));
}

/**
 * The revision checked out at `root`, only when `root` is the top of a git checkout. Installed as a
 * package, pmiyc's folder sits inside the user's own project (`node_modules/pmiyc`), and git run
 * there answers with the user's revision, which says nothing about the code of pmiyc.
 */
export function gitRevisionOf(root: string): string | undefined {
  try {
    const [top, revision] = execFileSync('git', ['rev-parse', '--show-toplevel', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 })
      .toString()
      .trim()
      .split('\n');
    return top !== undefined && revision && realpathSync(top) === realpathSync(root) ? revision : undefined;
  } catch {
    return undefined;
  }
}
