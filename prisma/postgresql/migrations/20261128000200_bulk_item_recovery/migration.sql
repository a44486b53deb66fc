-- AlterTable
ALTER TABLE "BulkActivationJob" ADD COLUMN     "unresolved" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex (partial, not in schema.prisma: only the items whose outcome recovery has yet to learn)
CREATE INDEX "BulkActivationItem_unknown_transactionId_idx" ON "BulkActivationItem"("transactionId") WHERE "status" = 'unknown';
