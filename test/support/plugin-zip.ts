import { buffer } from 'node:stream/consumers';
import yazl from 'yazl';

/** A real ZIP archive holding `files` (path → text), as a plugin's release ZIP would. */
export async function pluginZip(files: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [path, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), path);
  zip.end();
  return buffer(zip.outputStream);
}
