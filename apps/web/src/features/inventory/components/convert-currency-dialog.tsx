import { type Currency, currencies, formatEnUs, planConversion } from '@haversack/contracts';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { quantityFieldProps } from '../../../lib/quantity-field';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { coinNames } from '../api/inventory-api';
import { conversionFailed, useConvertCurrency } from '../hooks/use-inventory-actions';
import { RefusalAlert } from './refusal-alert';

const coinOptions = currencies.map((c) => ({ value: c, label: `${coinNames[c]} (${c})` }));

/**
 * What a coin is usually changed into: the next larger one, past electrum, which most tables never use
 * (review 2026-11); platinum, the largest, into gold.
 */
const usualTarget: Record<Currency, Currency> = { cp: 'sp', sp: 'gp', ep: 'gp', gp: 'pp', pp: 'gp' };

/** The first denomination held, and what it is usually changed into. */
function defaultPair(coins: Partial<Record<Currency, number>>): [Currency, Currency] {
  const from = currencies.find((c) => (coins[c] ?? 0) > 0) ?? 'cp';
  return [from, usualTarget[from]];
}

/**
 * What Convert would do, said before it is pressed, from the rule the server applies (planConversion):
 * what the container gets, and what stays of the coin converted.
 */
export function conversionPreview(
  from: Currency,
  to: Currency,
  held: number,
  requested: number | undefined,
): string | null {
  if (from === to) return null;
  const plan = planConversion(from, to, held, requested);
  if (plan) {
    const left = held - plan.spend;
    const stays = left === 0 ? `no ${from} stay` : `${left} ${from} ${left === 1 ? 'stays' : 'stay'}`;
    return `You get ${plan.receive} ${to}; ${stays}.`;
  }
  if (requested !== undefined && requested > held)
    return `There ${held === 1 ? 'is' : 'are'} only ${formatEnUs(held)} ${from}.`;
  if (requested === undefined) return `Too few ${from} to make one ${to}.`;
  return `That many ${from} does not convert evenly into ${to}.`;
}

/** Where the two selects side by side would cut the coins' names ("Silver piece...", "Electrum pi..."). */
const narrowScreen = '(max-width: 30em)';

/**
 * POST containers/{id}/convert_currency: from, to and an optional quantity (empty: as many as convert
 * evenly). The server's refusal (422) shows in the dialog and as a toast.
 */
export function ConvertCurrencyDialog({
  opened,
  containerId,
  containerName,
  coins,
  onClose,
}: {
  opened: boolean;
  containerId: string;
  containerName: string;
  coins: Partial<Record<Currency, number>>;
  onClose: () => void;
}) {
  const [initialFrom, initialTo] = defaultPair(coins);
  const [from, setFrom] = useState<Currency>(initialFrom);
  const [to, setTo] = useState<Currency>(initialTo);
  // "To" follows "From" until the person picks a coin for it; it never stays on the coin "From" became.
  const [toChosen, setToChosen] = useState(false);
  const chooseFrom = (coin: Currency) => {
    setFrom(coin);
    if (!toChosen || coin === to) {
      setTo(usualTarget[coin]);
      setToChosen(false);
    }
  };
  const stacked = useMediaQuery(narrowScreen, false, { getInitialValueInEffect: false });
  const [quantity, setQuantity] = useState<number | string>('');
  const convert = useConvertCurrency(containerId);
  const once = useSingleFlight();
  const amount = quantity === '' ? undefined : Number(quantity);
  const validAmount = amount === undefined || (Number.isInteger(amount) && amount >= 1);
  const valid = from !== to && validAmount;
  const close = () => {
    convert.reset();
    setQuantity('');
    onClose();
  };
  const held = (currency: Currency) => coins[currency] ?? 0;
  const preview = conversionPreview(from, to, held(from), amount);
  // An array, not a fragment: Group counts its children to share its row between them.
  const coinSelects = [
    <Select
      key="from"
      label="From"
      // The dialog's first question, rather than its close button (Mantine's first tabbable otherwise).
      data-autofocus
      // A coin the container holds none of cannot be converted from (review 2026-11).
      data={coinOptions.map((option) => ({ ...option, disabled: held(option.value) === 0 }))}
      value={from}
      onChange={(value) => value && chooseFrom(value as Currency)}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
    />,
    <Select
      key="to"
      label="To"
      data={coinOptions}
      value={to}
      onChange={(value) => {
        if (!value) return;
        setTo(value as Currency);
        setToChosen(true);
      }}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      error={from === to ? 'Choose another coin' : undefined}
    />,
  ];
  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Convert coins"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid) return;
          once(() =>
            convert.mutateAsync(
              { from, to, held: held(from), ...(amount === undefined ? {} : { quantity: amount }) },
              {
                onSuccess: close,
              },
            ),
          );
        }}
      >
        <Stack gap="md">
          <Text size="sm">
            {containerName} holds{' '}
            {currencies
              .filter((c) => held(c) > 0)
              .map((c) => `${formatEnUs(held(c))} ${c}`)
              .join(', ') || 'no coins'}
            . 1 pp = 10 gp = 20 ep = 100 sp = 1000 cp.
          </Text>
          {stacked ? (
            <Stack gap="sm">{coinSelects}</Stack>
          ) : (
            <Group grow align="flex-start">
              {coinSelects}
            </Group>
          )}
          <NumberField
            label="Quantity (optional)"
            description={`How many ${from} to convert; empty converts as many as convert evenly`}
            placeholder="As many as convert evenly"
            value={quantity}
            onChange={setQuantity}
            {...quantityFieldProps}
            error={validAmount ? undefined : 'Quantity must be a whole number of at least 1'}
          />
          {validAmount && preview ? (
            <Text size="sm" fw={600} data-testid="conversion-preview" aria-live="polite">
              {preview}
            </Text>
          ) : null}
          {convert.isError ? <RefusalAlert error={convert.error} fallback={conversionFailed} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid || convert.isPending} loading={convert.isPending}>
              Convert
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
