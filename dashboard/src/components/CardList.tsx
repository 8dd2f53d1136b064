import type { Key, ReactNode } from 'react';
import { ListBody, type Pages } from './ListBody';

type CardListProps<Item> = {
  items: readonly Item[];
  /** One item's card. */
  children: (item: Item) => ReactNode;
  empty?: ReactNode;
  pages?: Pages;
};

/** A list of items, one card each (messages, reasons: text that does not fit a table's cells). */
export function CardList<Item extends { id: Key }>({ items, children, empty, pages }: CardListProps<Item>) {
  return (
    <ListBody count={items.length} empty={empty} pages={pages}>
      <ul className="list">
        {items.map((item) => (
          <li key={item.id} className="card">
            {children(item)}
          </li>
        ))}
      </ul>
    </ListBody>
  );
}
