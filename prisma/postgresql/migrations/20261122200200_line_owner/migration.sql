-- AlterTable
ALTER TABLE "Line" ADD COLUMN "ownerId" TEXT;

-- CreateIndex
CREATE INDEX "Line_ownerId_mdn_idx" ON "Line"("ownerId", "mdn");
