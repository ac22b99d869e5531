// The parsed, already allow-listed SVG tree the sanitizer works on.

export interface SvgNode {
  name: string;
  attrs: Map<string, string>;
  children: (SvgNode | string)[];
}

/** The logo is refused; the message is a short reason shown to the client. */
export class SvgRejected extends Error {}

export function* elements(node: SvgNode): Generator<SvgNode> {
  const stack: SvgNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    yield n;
    for (let i = n.children.length - 1; i >= 0; i--) {
      const c = n.children[i]!;
      if (typeof c !== 'string') stack.push(c);
    }
  }
}
