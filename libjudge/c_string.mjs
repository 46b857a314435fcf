// c_string.mjs: text as a C string literal, for the generators that put
// files into the judge (gen_class_page.mjs, gen_cli.mjs): printable ASCII as
// it is, every other byte in octal (three digits, so nothing after it can
// extend it), in lines of about 100 characters.
export function cString(text) {
  const lines = [];
  let line = '';
  for (const b of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(b);
    line += b >= 0x20 && b < 0x7f && c !== '"' && c !== '\\' && c !== '?' ? c : `\\${b.toString(8).padStart(3, '0')}`;
    if (line.length >= 100) {
      lines.push(`"${line}"`);
      line = '';
    }
  }
  lines.push(`"${line}"`);
  return lines.join('\n');
}
