import { writeFile } from 'node:fs/promises';
import { encode } from 'uqr';

/**
 * A video file for Chromium's fake camera (`fakeCamera`): one still frame of a label with `text` as its QR
 * code, black on white in the middle of a 640 x 480 picture, as YUV4MPEG2 (4:2:0; Chromium plays it in a loop).
 */
export async function writeQrVideo(path: string, text: string): Promise<void> {
  const width = 640;
  const height = 480;
  const { data, size } = encode(text, { border: 4 });
  const scale = Math.floor((height * 0.8) / size);
  const left = Math.floor((width - size * scale) / 2);
  const top = Math.floor((height - size * scale) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < size * scale; y++)
    for (let x = 0; x < size * scale; x++) if (data[Math.floor(y / scale)]![Math.floor(x / scale)]) luma[(top + y) * width + left + x] = 16;
  // No colour: both chroma planes at their midpoint.
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\nFRAME\n`);
  await writeFile(path, Buffer.concat([header, luma, chroma]));
}
