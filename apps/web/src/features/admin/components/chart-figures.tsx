import { Button, Stack, Table, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { type ReactNode, useId, useState } from 'react';

/**
 * A chart's figures as a table behind a "Show as table" button. Recharts' keyboard layer (a focusable
 * role=application whose arrow keys move a tooltip no screen reader hears) is turned off on the chart; this
 * table is how a screen reader, or anyone who wants the exact figures, gets them: one row a period, the
 * period as the row's header.
 */
export function ChartFigures({
  caption,
  periodHeader,
  valueHeader,
  rows,
  children,
}: {
  /** The chart's title, said again as the table's name. */
  caption: string;
  periodHeader: string;
  valueHeader: string;
  rows: { period: string; value: string }[];
  /** The chart itself. */
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const tableId = useId();
  return (
    <Stack gap="xs">
      {children}
      <Button
        variant="subtle"
        size="compact-sm"
        style={{ alignSelf: 'flex-start' }}
        aria-expanded={open}
        aria-controls={tableId}
        leftSection={
          open ? (
            <IconChevronDown size={14} aria-hidden="true" />
          ) : (
            <IconChevronRight size={14} aria-hidden="true" />
          )
        }
        onClick={() => setOpen((was) => !was)}
      >
        Show as table
      </Button>
      {/* Always in the page, so that aria-controls names it; empty while closed. */}
      <div id={tableId}>
        {open ? (
          <Table striped withTableBorder>
            <Table.Caption>
              <VisuallyHidden>{caption}</VisuallyHidden>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{periodHeader}</Table.Th>
                <Table.Th scope="col" ta="right">
                  {valueHeader}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.period}>
                  <Table.Th scope="row" fw="normal">
                    {row.period}
                  </Table.Th>
                  <Table.Td ta="right">{row.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </div>
    </Stack>
  );
}
