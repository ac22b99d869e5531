/** What an action did, where its control was; it takes the focus, so it is read at once. */
export function DoneLine({ id, text }: { id: string; text: string }) {
  return (
    <p class="done-line" id={id} tabIndex={-1}>
      {text}
    </p>
  );
}
