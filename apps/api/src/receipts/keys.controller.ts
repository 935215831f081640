import { Controller, Get, Inject } from '@nestjs/common';
import type { KeysDocument } from '@app/transparency';
import { RECEIPT_KEYS } from '../tokens';
import type { ReceiptKeys } from './key-store';

/** GET /keys: this origin's public keys, current and rotated out (docs/audit.md "The key list"). */
@Controller()
export class KeysController {
  constructor(@Inject(RECEIPT_KEYS) private readonly receiptKeys: ReceiptKeys) {}

  @Get('keys')
  keys(): KeysDocument {
    return { keys: this.receiptKeys.published };
  }
}
