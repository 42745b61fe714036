import { formatCopper, type LootInstance } from '@haversack/contracts';
import { Button, Center, Group, Paper, Stack, Text } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { memo, useId, useMemo } from 'react';
import { formatCount } from '../../../lib/format';
import { type TradeButtonFocus, useStockFocus } from '../../../lib/use-stock-focus';
import type { ActionScope } from '../../inventory/api/allowance-api';
import { SpentAllowanceNote } from '../../inventory/components/spent-allowance-note';
import { type LootLine, lootLines } from './loot-lines';
import type { LootPick } from './take-loot-dialog';

const TAKE_HELP_ID = 'loot-take-help';

/**
 * What a loot holds, one row per line of identical stacks (`lootLines`: three longswords, a stack each, are
 * one row of 3, as on a shop's shelf): name, quantity and worth. Members who may take get Take (part or
 * all, into a container they choose) and Claim (all of it to a character) on each row. Focus stays
 * in the list when the take dialog closes (WCAG 2.4.3): back on the button that opened it, or, once its
 * stack has left the loot, on the same button of the row in its place, else the list.
 */
export function LootInstanceItems({
  loot,
  canTake,
  disabled,
  allowanceSpent = null,
  takeOpen,
  onPick,
}: {
  loot: LootInstance;
  /** Show Take and Claim (a member with a character in the party, on revealed loot). */
  canTake: boolean;
  /** Shown but not yet usable (my characters are still loading). */
  disabled: boolean;
  /**
   * The allowance a take or a claim spends (the loot's party's, loot.service), used up this month: Take
   * and Claim stay in place, focusable but disabled, described by why, and open nothing.
   */
  allowanceSpent?: ActionScope | null;
  /** The take dialog is open: once it closes, focus comes back to the row that opened it. */
  takeOpen: boolean;
  onPick: (pick: LootPick) => void;
}) {
  // Kept while the loot is the same: its rows (memoised) are not drawn again when the take dialog opens.
  const lines = useMemo(() => lootLines(loot.container.item_instances), [loot.container.item_instances]);
  const refusalId = useId();
  const refused = canTake && allowanceSpent !== null;
  const focus = useStockFocus(
    lines.map((line) => line.key),
    takeOpen,
  );
  if (lines.length === 0) {
    return (
      <Center py="xl" data-testid="loot-empty" ref={focus.list} tabIndex={-1}>
        <Text c="dimmed">
          {loot.distributed_at
            ? 'Everything in this loot has been shared out.'
            : 'Nothing is left in this loot.'}
        </Text>
      </Center>
    );
  }
  return (
    <>
      {canTake ? (
        // Two buttons a row, told apart once above them and read with each (aria-describedby).
        <Text id={TAKE_HELP_ID} size="xs" c="dimmed">
          Take: choose how many and which of your containers. Claim: all of it, into a character’s main
          container.
        </Text>
      ) : null}
      {refused && allowanceSpent ? (
        <SpentAllowanceNote id={refusalId} scope={allowanceSpent} testId="take-allowance-refusal" />
      ) : null}
      <Stack
        gap={6}
        component="ul"
        data-testid="loot-contents"
        ref={focus.list}
        tabIndex={-1}
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {lines.map((line, index) => (
          <li key={line.key}>
            <LootItemRow
              line={line}
              label={lineLabel(lines, index)}
              canTake={canTake}
              disabled={disabled}
              refusalId={refused ? refusalId : null}
              takeButton={focus.tradeButton(line.key, index, 'take')}
              claimButton={focus.tradeButton(line.key, index, 'claim')}
              onPick={onPick}
            />
          </li>
        ))}
      </Stack>
    </>
  );
}

/**
 * What a row's Take and Claim name: the item, and where several lines share its name (a Shortsword with a
 * note of its own is not like the others) which of them it is, so no two buttons read the same ("Take
 * Shortsword, 2 of 2").
 */
function lineLabel(lines: readonly LootLine[], index: number): string {
  const line = lines[index];
  if (!line) return '';
  const namesakes = lines.filter((other) => other.item.name === line.item.name);
  if (namesakes.length < 2) return line.item.name;
  return `${line.item.name}, ${namesakes.indexOf(line) + 1} of ${namesakes.length}`;
}

const LootItemRow = memo(function LootItemRow({
  line,
  label,
  canTake,
  disabled,
  refusalId,
  takeButton,
  claimButton,
  onPick,
}: {
  line: LootLine;
  /** The item's name, told apart from its namesakes in the list. */
  label: string;
  canTake: boolean;
  disabled: boolean;
  /** Why Take and Claim are refused though in place (a used-up allowance): the id of the line saying it. */
  refusalId: string | null;
  /** Tie the Take and Claim buttons to the list's focus keeping. */
  takeButton: TradeButtonFocus;
  claimButton: TradeButtonFocus;
  onPick: (pick: LootPick) => void;
}) {
  const { item, quantity } = line;
  // The SRD gives magic items no price: "Unpriced", not "0 gp" (as the item's own page says).
  const unpriced = item.item_template.metadata.priced === false;
  // Described by what each does and, when refused, by why.
  const described = refusalId
    ? { 'aria-disabled': true, 'data-disabled': true, 'aria-describedby': `${TAKE_HELP_ID} ${refusalId}` }
    : { 'aria-describedby': TAKE_HELP_ID };
  const pick = (kind: LootPick['kind']) => () => {
    if (!refusalId) onPick({ kind, item });
  };
  return (
    <Paper withBorder p="xs" data-testid="loot-stack" data-item-name={item.name}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 11em' }}>
          {item.item_template.coin ? <IconCoins size={18} aria-hidden="true" /> : null}
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {item.name}
            </Text>
            <Text size="xs" c="dimmed" data-testid="loot-stack-facts">
              Quantity {formatCount(quantity)}
              {unpriced ? '' : ` · ${formatCopper(item.value_cp)} each`}
            </Text>
          </Stack>
        </Group>
        {/* Its worth, Take and Claim wrap (right-aligned) rather than push the page sideways at large text. */}
        <Group gap="xs" wrap="wrap" justify="flex-end" ml="auto" miw={0}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="loot-stack-value">
            {unpriced ? 'Unpriced' : formatCopper(item.value_cp * quantity)}
          </Text>
          {canTake ? (
            <>
              <Button
                size="sm"
                variant="light"
                {...takeButton}
                disabled={disabled}
                {...described}
                onClick={pick('take')}
                aria-label={`Take ${label}`}
              >
                Take
              </Button>
              <Button
                size="sm"
                {...claimButton}
                disabled={disabled}
                {...described}
                onClick={pick('claim')}
                aria-label={`Claim ${label}`}
              >
                Claim
              </Button>
            </>
          ) : null}
        </Group>
      </Group>
    </Paper>
  );
});
