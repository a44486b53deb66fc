-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN "request" TEXT;
ALTER TABLE "Transaction" ADD COLUMN "leaseUntil" DATETIME;
ALTER TABLE "Transaction" ADD COLUMN "leaseOwner" TEXT;
ALTER TABLE "Transaction" ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Transaction" ADD COLUMN "resolvedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Transaction_status_createdAt_idx" ON "Transaction"("status", "createdAt");
